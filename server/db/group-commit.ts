/**
 * Group commit: concurrent calls joined into batches, each batch ONE statement (`run`), each call answered with its own
 * item of the batch's answer. A call that finds fewer than `maxInFlight` batches running goes at once (with whatever
 * arrived in the same turn of the event loop), so a lone call waits for nothing; the calls arriving while the batches
 * run wait for one to finish and go together in the next. Under load the statements, round trips and commits (and
 * the CPU the driver spends on each) are shared by the batch instead of paid per call.
 *
 * `run` must be all or nothing (one statement, or one transaction) and answer one result per item, in order: when a
 * batch fails, each of its items is run again alone, so one bad item (a value the database refuses) fails only its own
 * call.
 */
export type GroupCommit<I, O> = { submit: (item: I) => Promise<O> };

type Waiting<I, O> = { item: I; resolve: (result: O) => void; reject: (err: unknown) => void };

export function createGroupCommit<I, O>(
  run: (items: I[]) => Promise<O[]>,
  options: { maxBatch: number; maxInFlight: number },
): GroupCommit<I, O> {
  let waiting: Waiting<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;

  const runAlone = async (w: Waiting<I, O>) => {
    try {
      const [result] = await run([w.item]);
      w.resolve(result!);
    } catch (err) {
      w.reject(err);
    }
  };

  const runBatch = async (batch: Waiting<I, O>[]) => {
    let results: O[];
    try {
      results = await run(batch.map((w) => w.item));
    } catch (err) {
      if (batch.length === 1) batch[0]!.reject(err);
      // Nothing of the batch was written: each item alone, so only a bad one fails.
      else await Promise.all(batch.map(runAlone));

      return;
    }
    batch.forEach((w, i) => w.resolve(results[i]!));
  };

  const startBatches = () => {
    scheduled = false;
    while (inFlight < options.maxInFlight && waiting.length > 0) {
      const batch = waiting.length <= options.maxBatch ? waiting : waiting.slice(0, options.maxBatch);
      waiting = batch === waiting ? [] : waiting.slice(options.maxBatch);
      inFlight++;
      void runBatch(batch).finally(() => {
        inFlight--;
        startBatches();
      });
    }
  };

  return {
    submit(item) {
      return new Promise<O>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        // The calls of this turn of the event loop (requests parsed from one read of the sockets) go together.
        if (!scheduled && inFlight < options.maxInFlight) {
          scheduled = true;
          setImmediate(startBatches);
        }
      });
    },
  };
}
