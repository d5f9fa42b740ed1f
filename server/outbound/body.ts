import { pipeline, type Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { formatBytes, formatDuration, OutboundError, toOutboundError, type TimeoutLimits } from './outbound-error';

/** What Accept-Encoding offers; the server may still use deflate, which is decoded too. */
export const acceptedEncodings = 'gzip, br';

const decoders: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/** More codings than anyone uses on purpose: each is another decompression pass. */
const maxCodings = 2;

/** The decoders for a Content-Encoding, outermost first; an encoding we cannot read fails the request. */
export function contentDecoders(contentEncoding: string | undefined, host: string): Transform[] {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > maxCodings) {
    throw new OutboundError('network', `The server ${host} compressed its answer too many times`);
  }

  return codings.reverse().map((coding) => {
    const decoder = decoders[coding];
    if (!decoder) {
      throw new OutboundError('network', `The server ${host} answered in the ${coding} encoding, which is not supported`);
    }

    return decoder();
  });
}

/**
 * The response body as the caller reads it: decoded, capped at `maxBytes` after decoding (a small compressed
 * body can expand a thousandfold), and failed when the whole of it takes longer than the body timeout. Every
 * error it emits is an OutboundError; an error or an early destroy also stops the download.
 */
export function openBody(context: {
  source: Readable;
  decoders: Transform[];
  maxBytes: number;
  host: string;
  limits: TimeoutLimits;
}): Readable {
  const { source, maxBytes, host, limits } = context;
  let received = 0;
  const output = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > maxBytes) {
        callback(new OutboundError('tooLarge', `The answer from ${host} is larger than the ${formatBytes(maxBytes)} allowed`));

        return;
      }
      callback(null, chunk);
    },
    destroy(error, callback) {
      clearTimeout(timer);
      callback(error ? toOutboundError(error, { host, limits }) : null);
    },
  });
  const timer = setTimeout(() => {
    const duration = formatDuration(limits.bodyTimeoutMs);
    output.destroy(new OutboundError('timeout', `The answer from ${host} did not arrive within ${duration}`));
  }, limits.bodyTimeoutMs);
  output.once('end', () => clearTimeout(timer));
  // A body over the cap (or timed out) can fail before its caller listens: the error stays on the stream
  // (`errored`, what reading or a pipeline reports), and this listener keeps it from being an uncaught exception.
  output.on('error', () => {});
  // Errors reach the caller through `output` (its destroy maps them); the callback only keeps pipeline quiet.
  pipeline([source, ...context.decoders, output], () => {});

  return output;
}
