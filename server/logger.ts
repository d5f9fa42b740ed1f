import pino, { type Logger } from 'pino';

/** Structured JSON logs; tokens, passwords and cookies are redacted wherever they appear. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: [
        '*.password',
        '*.token',
        '*.accessToken',
        '*.refreshToken',
        '*.authorization',
        '*.cookie',
        'req.headers.authorization',
        'req.headers.cookie',
      ],
      censor: '[redacted]',
    },
  });
}
