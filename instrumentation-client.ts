import { z } from 'zod';

// Runs before the console's code: under its Content-Security-Policy (no eval), zod's probe for `new Function`
// (its compiled parsers) would be reported as a violation; the interpreted parsers need no probe.
z.config({ jitless: true });
