import fc from 'fast-check';
import type { TestContext } from '@/server/test/harness';
import { curlLine } from './curl';
import { matchingStrings, patternOf } from './json-schema-arbitrary';
import { judge, type Answer, type FailureKind } from './judge';
import {
  admits,
  fillIds,
  operationsOf,
  recombine,
  requestArbitrary,
  routeOf,
  toWire,
  type Credential,
  type Draft,
  type OpenApiDocument,
  type Operation,
  type WireRequest,
} from './operations';
import { SchemaValidator } from './schema-validator';
import { World } from './world';

/**
 * The contract fuzzer: every operation of the OpenAPI document, called in rounds until the time is up,
 * with requests generated from its own schemas (see judge.ts for what is checked). Failures are grouped
 * by class (kind and signature), each with the operations it was seen on and a curl line per operation.
 */

export type FuzzOptions = {
  seconds: number;
  seed: number;
  /** Requests per operation per round. */
  batch?: number;
  /** Only operations whose operationId matches. */
  only?: RegExp;
  bytes: fc.Arbitrary<Uint8Array>;
};

type Example = { operationId: string; curl: string; answer: string; count: number };
export type FailureClass = { kind: FailureKind; signature: string; examples: Map<string, Example>; firstAt: number };

export type FuzzResult = {
  seed: number;
  seconds: number;
  requests: number;
  /** Requests a sibling route answered (a generated value equal to one of its static segments). */
  rerouted: number;
  byOperation: Map<string, { requests: number; valid: number; invalid: number }>;
  classes: Map<string, FailureClass>;
  reseeds: number;
};

/** The client address of the fuzzed calls (their rate limits do not reach the seeding's). */
const FUZZ_ADDRESS = '10.27.0.2';
const ANSWER_TIMEOUT_MS = 20_000;

/** The document's patterns that cannot work: not a regular expression, flags pasted in, or matching nothing. */
export function patternProblems(document: unknown): string[] {
  const problems: string[] = [];
  const patterns = new Map<string, string>();
  const walk = (node: unknown, at: string) => {
    if (node === null || typeof node !== 'object') return;
    const pattern = (node as { pattern?: unknown }).pattern;
    if (typeof pattern === 'string' && (node as { type?: unknown }).type !== undefined && !patterns.has(pattern)) patterns.set(pattern, at);
    for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
  };
  walk(document, '#');
  for (const [pattern, at] of patterns) {
    if (!patternOf(pattern)) problems.push(`pattern ${JSON.stringify(pattern)} is no ECMAScript regular expression (at ${at})`);
    // A JSON Schema pattern has no flags: a trailing `/i` is a regular-expression literal's flags pasted in.
    else if (/(?<!\\)\/[dgimsuvy]+$/.test(pattern))
      problems.push(`pattern ${JSON.stringify(pattern)} ends in a regular expression's flags (at ${at})`);
    else if (!matchingStrings(pattern)) problems.push(`pattern ${JSON.stringify(pattern)} matches no string generated from it (at ${at})`);
  }

  return problems;
}

export async function runContractFuzz(t: TestContext, document: OpenApiDocument, options: FuzzOptions): Promise<FuzzResult> {
  const validator = new SchemaValidator(document);
  const all = operationsOf(document);
  const operations = all.filter((op) => !options.only || options.only.test(op.operationId));
  const world = new World(t);
  await world.setUp();
  const arbitraries = new Map<Operation, fc.Arbitrary<Draft>>();
  const arbitraryOf = (op: Operation) => {
    let arbitrary = arbitraries.get(op);
    if (!arbitrary) arbitraries.set(op, (arbitrary = requestArbitrary(op, { resolve: validator.resolve, bytes: options.bytes })));

    return arbitrary;
  };
  const result: FuzzResult = {
    seed: options.seed,
    seconds: 0,
    requests: 0,
    rerouted: 0,
    byOperation: new Map(),
    classes: new Map(),
    reseeds: 0,
  };
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  const batch = options.batch ?? 4;
  // Writes get twice the requests of reads (they change state and reach the database's constraints). An
  // operation whose last batch met an answer not seen before gets three batches in the next round; one that
  // met nothing new in its last two, half a batch.
  const seen = new Map<Operation, Set<string>>();
  const batches = new Map<Operation, number>();
  const quiet = new Map<Operation, number>();
  const accepted = new Map<Operation, Draft[]>();
  let sinceCheck = 0;
  for (let round = 0; Date.now() < deadline; round++) {
    const order = fc.sample(fc.shuffledSubarray(operations, { minLength: operations.length, maxLength: operations.length }), {
      seed: options.seed + round,
      numRuns: 1,
    })[0]!;
    for (const [index, operation] of order.entries()) {
      // The first round is never cut short: every operation is called at least once, however slow the machine.
      if (round > 0 && Date.now() >= deadline) break;
      // Generated calls use up resources and may break a caller: look after them every thousand calls.
      if (sinceCheck >= 1000) {
        sinceCheck = 0;
        await world.replenish();
        for (const caller of ['owner', 'admin', 'device'] as const) await world.repair(caller);
      }
      const count = Math.max(1, Math.round(batch * (batches.get(operation) ?? 1) * (operation.method === 'GET' ? 1 : 2)));
      const seed = mix(options.seed, round, index);
      const fresh = fc.sample(arbitraryOf(operation), { seed, numRuns: count });
      // Every other valid request is an accepted one with one input taken from a fresh one: it keeps what
      // made the accepted request get through (a real tenant, no refused expression) and varies the rest.
      const bases = accepted.get(operation) ?? [];
      const picks = fc.sample(fc.tuple(fc.nat(), fc.nat()), { seed: seed ^ 0x5bd1e995, numRuns: count });
      const drafts = fresh.map((draft, i) =>
        bases.length > 0 && draft.aim === 'valid' && i % 2 === 1
          ? recombine(bases[picks[i]![0] % bases.length]!, draft, picks[i]![1])
          : draft,
      );
      const outcomes = seen.get(operation) ?? new Set<string>();
      seen.set(operation, outcomes);
      const before = outcomes.size;
      for (const draft of drafts) {
        const { outcome, acceptedValid } = await exchange(draft);
        outcomes.add(outcome);
        if (acceptedValid) accepted.set(operation, [...(accepted.get(operation) ?? []).slice(-3), draft]);
      }
      sinceCheck += drafts.length;
      const quietBatches = outcomes.size > before ? 0 : (quiet.get(operation) ?? 0) + 1;
      quiet.set(operation, quietBatches);
      batches.set(operation, quietBatches === 0 ? 3 : quietBatches === 1 ? 1 : 0.5);
    }
  }
  result.seconds = (Date.now() - started) / 1000;
  result.reseeds = world.reseeds;

  return result;

  /**
   * Sends one request and judges its answer; answers what kind of answer it was (status, key, place) and
   * whether it was a valid request the server accepted.
   */
  async function exchange(draft: Draft): Promise<{ outcome: string; acceptedValid: boolean }> {
    const { operation, credential } = draft;
    const caller = callerOf(credential);
    const { own, foreign } = world.pools(caller);
    const filled: Draft = {
      ...draft,
      path: fillIds(draft.path, own, foreign) as Draft['path'],
      query: fillIds(draft.query, own, foreign) as Draft['query'],
      headers: fillIds(draft.headers, own, foreign) as Draft['headers'],
      body: draft.body && { mediaType: draft.body.mediaType, value: fillIds(draft.body.value, own, foreign) },
    };
    const { request, verdict } = toWire(filled, validator);
    if (routeOf(all, request.method, request.url) !== operation) {
      result.rerouted++;

      return { outcome: 'rerouted', acceptedValid: false };
    }
    const stats = result.byOperation.get(operation.operationId) ?? { requests: 0, valid: 0, invalid: 0 };
    result.byOperation.set(operation.operationId, stats);
    stats.requests++;
    if (verdict.valid === true) stats.valid++;
    if (verdict.valid === false) stats.invalid++;
    result.requests++;
    const answer = await send(request, credential, draft.malformedCookie);
    const admitted = admits(operation, credential);
    // A webhook trigger's key is a parameter: the generated one is made up, and refusing it is right.
    const carriesCredential = operation.audience === 'client' || operation.audience === 'apiKey' || /[?&]token=/.test(request.url);
    let judgements = judge(operation, verdict, { admitted, credential, carriesCredential }, answer);
    // A 401 to an admitted credential: an earlier generated call may have revoked it (a password change,
    // a deleted tenant). Then it says nothing about this request, and the caller is seeded anew.
    if (answer.status === 401 && admitted && (await world.repair(caller)))
      judgements = judgements.filter((j) => j.kind !== 'valid input refused');
    for (const judgement of judgements) {
      const id = `${judgement.kind}|${judgement.signature}`;
      let failure = result.classes.get(id);
      if (!failure) result.classes.set(id, (failure = { ...judgement, examples: new Map(), firstAt: result.requests }));
      const example = failure.examples.get(operation.operationId);
      if (example) example.count++;
      else
        failure.examples.set(operation.operationId, {
          operationId: operation.operationId,
          curl: curlLine(request, credential, draft.malformedCookie),
          answer: answer.shown,
          count: 1,
        });
    }

    return {
      outcome: `${answer.status} ${answer.key ?? ''} ${answer.target ?? ''} ${answer.issuePath ?? ''}`,
      acceptedValid: verdict.valid === true && admitted && answer.status >= 200 && answer.status < 300,
    };
  }

  async function send(request: WireRequest, credential: Credential, malformedCookie: string): Promise<Answer & { shown: string }> {
    const headers: Record<string, string> = { ...request.headers, ...credentialHeaders(credential, malformedCookie, request.method) };
    let body: BodyInit | undefined;
    const wire = request.body;
    if (wire?.kind === 'json') {
      headers['content-type'] = wire.mediaType;
      body = wire.text;
    } else if (wire?.kind === 'form') {
      headers['content-type'] = wire.mediaType;
      body = new URLSearchParams(wire.fields).toString();
    } else if (wire?.kind === 'multipart') {
      const form = new FormData();
      for (const [name, text, kind] of wire.fields)
        form.append(name, kind === 'file' ? new File([text], 'fuzz.bin', { type: 'application/octet-stream' }) : text);
      body = form;
    } else if (wire?.kind === 'bytes') {
      headers['content-type'] = wire.mediaType;
      body = new Uint8Array(wire.bytes) as Uint8Array<ArrayBuffer>;
    }
    const response = await withTimeout(
      Promise.resolve(t.app.request(request.url, { method: request.method, headers, body }, { bridgeClientAddress: FUZZ_ADDRESS })),
    );
    if (!response) return { status: 599, key: 'no answer', shown: `no answer within ${ANSWER_TIMEOUT_MS / 1000} s` };
    const text = await response.text();
    let parsed:
      { key?: unknown; error?: unknown; details?: { target?: unknown; issues?: { path?: unknown }[] }; rejected?: unknown } | undefined;
    try {
      parsed = (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const key = typeof parsed?.key === 'string' ? parsed.key : typeof parsed?.error === 'string' ? parsed.error : undefined;
    const details = parsed?.details as { target?: unknown; parameter?: unknown } | undefined;
    const target =
      typeof details?.target === 'string'
        ? details.target
        : typeof details?.parameter === 'string'
          ? `query ${details.parameter}`
          : undefined;
    const firstPath = parsed?.details?.issues?.[0]?.path;
    const issuePath = typeof firstPath === 'string' && firstPath !== '' ? firstPath.replace(/\.\d+(?=\.|$)/g, '[]') : undefined;

    // A batch that refuses bad items one by one (proof of play) lists them in `rejected` by index.
    const rejected = Array.isArray(parsed?.rejected)
      ? parsed.rejected.map((r: { index?: unknown }) => r?.index).filter((i): i is number => typeof i === 'number')
      : undefined;

    return { status: response.status, key, target, issuePath, rejected, shown: `${response.status} ${text.slice(0, 300)}` };
  }

  function credentialHeaders(credential: Credential, malformedCookie: string, method: string): Record<string, string> {
    switch (credential) {
      case 'owner-bearer':
        return { authorization: `Bearer ${world.owner.token}` };
      case 'admin-bearer':
        return { authorization: `Bearer ${world.admin.token}` };
      case 'device-bearer':
        return { authorization: `Bearer ${world.device.token}` };
      case 'owner-cookie':
        return {
          cookie: `next-auth.session-token=${world.owner.cookie}`,
          ...(method === 'GET' ? {} : { origin: new URL(t.config.publicUrl ?? 'http://console.test').origin }),
        };
      case 'owner-cookie-no-origin':
        return { cookie: `next-auth.session-token=${world.owner.cookie}` };
      case 'none':
        return {};
      case 'unknown-bearer':
        return { authorization: `Bearer ${'A'.repeat(43)}` };
      case 'malformed-cookie':
        return { cookie: `next-auth.session-token=${malformedCookie}` };
      case 'not-bearer':
        return { authorization: 'Basic Zm9vOmJhcg==' };
      case 'client-basic':
        return {
          authorization: `Basic ${Buffer.from(`default-client:${t.config.oauthClientSecrets['default-client']}`).toString('base64')}`,
        };
      case 'device-basic':
        return { authorization: `Basic ${Buffer.from(`${world.device.deviceId}:${world.device.secret}`).toString('base64')}` };
      case 'wrong-basic':
        return { authorization: `Basic ${Buffer.from('default-client:wrong').toString('base64')}` };
    }
  }
}

function callerOf(credential: Credential): 'owner' | 'admin' | 'device' {
  if (credential === 'admin-bearer') return 'admin';
  if (credential === 'device-bearer' || credential === 'device-basic') return 'device';

  return 'owner';
}

/** A seed per operation and round, so a failure repeats with the same seed (and the same calls before it). */
function mix(seed: number, round: number, index: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const n of [round, index]) {
    h = Math.imul(h ^ n, 0x85ebca6b) >>> 0;
    h = (h ^ (h >>> 13)) >>> 0;
  }

  return h | 0;
}

async function withTimeout<T>(promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ANSWER_TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The failures as text: per class, its operations and one curl line (with the answer) per operation. */
export function formatClasses(classes: Iterable<FailureClass>, options: { examplesPerClass?: number } = {}): string {
  const limit = options.examplesPerClass ?? 5;
  const blocks: string[] = [];
  for (const failure of classes) {
    const examples = [...failure.examples.values()];
    const total = examples.reduce((sum, e) => sum + e.count, 0);
    const lines = [
      `[${failure.kind}] ${failure.signature}: ${total} requests (first: request ${failure.firstAt}), ${examples.length} operation(s): ${examples.map((e) => `${e.operationId} ×${e.count}`).join(', ')}`,
    ];
    for (const example of examples.slice(0, limit))
      lines.push(`  ${example.operationId}: ${example.curl}`, `    → ${example.answer.replace(/\s+/g, ' ')}`);
    if (examples.length > limit) lines.push(`  … and ${examples.length - limit} more operation(s)`);
    blocks.push(lines.join('\n'));
  }

  return blocks.join('\n');
}
