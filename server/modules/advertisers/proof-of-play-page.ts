import { randomBytes } from 'node:crypto';
import { escapeHtml } from '@/server/html-escape';
import type { AdvertiserPlaySummary } from './advertiser-plays';
import { PROOF_OF_PLAY_PAGE_DAYS, type ProofOfPlayPageDays } from './proof-of-play.service';

/*
 * The advertiser's proof-of-play link opened in a browser (issue 28 item 14): a page a person reads — totals of
 * the period, plays per day and per screen, the CSV as a download — instead of a raw file. Public (the token in
 * the link is the only credential), so: no console code, no session, no script at all, one style element allowed
 * by a nonce, nothing loaded from anywhere, no referrer (the URL carries the token), not cached, not indexed. It
 * shows sums of what the CSV lists, nothing else.
 */

export type ProofOfPlayPageInput = {
  advertiserName: string;
  days: ProofOfPlayPageDays;
  from: Date;
  to: Date;
  summary: AdvertiserPlaySummary;
  /** The link's own path and token: the period links and the download keep it. */
  token: string;
  path: string;
};

/** The page's headers: a policy that admits its one style element and nothing else. */
export function proofOfPlayPageHeaders(nonce: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'x-robots-tag': 'noindex, nofollow',
  };
}

export function pageNonce(): string {
  return randomBytes(16).toString('base64');
}

/** `45 s`, `12 min 5 s`, `3 h 20 min`. */
function formatPlayTime(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`;

  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

const count = (n: number) => n.toLocaleString('en-US');
const day = (d: Date) => d.toISOString().slice(0, 10);

export function renderProofOfPlayPage(input: ProofOfPlayPageInput, nonce: string): string {
  const { summary } = input;
  const link = (query: Record<string, string>) => escapeHtml(`${input.path}?${new URLSearchParams({ token: input.token, ...query })}`);
  const periods = PROOF_OF_PLAY_PAGE_DAYS.map((d) =>
    d === input.days ? `<strong aria-current="page">${d} days</strong>` : `<a href="${link({ days: String(d) })}">${d} days</a>`,
  ).join(' · ');
  const maxPerDay = Math.max(1, ...summary.days.map((d) => d.plays));
  const dayRows = summary.days
    .map(
      (d) =>
        `<tr><td>${escapeHtml(d.day)}</td><td class="n">${count(d.plays)}</td><td class="n">${formatPlayTime(d.durationMs)}</td><td class="bar"><meter min="0" max="${maxPerDay}" value="${d.plays}">${count(d.plays)}</meter></td></tr>`,
    )
    .join('');
  const screenRows = summary.screens
    .map(
      (s) =>
        `<tr><td>${escapeHtml(s.deviceName ?? 'Unnamed screen')}</td><td class="n">${count(s.plays)}</td><td class="n">${formatPlayTime(s.durationMs)}</td></tr>`,
    )
    .join('');
  const empty = '<p class="empty">No plays in this period.</p>';

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Proof of play · ${escapeHtml(input.advertiserName)}</title>
<style nonce="${nonce}">
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', sans-serif; color: #18181b; background: #f4f4f5; }
  main { max-width: 960px; margin: 0 auto; padding: 32px 24px 48px; }
  h1 { font-size: 24px; margin: 0 0 4px; }
  h2 { font-size: 16px; margin: 32px 0 8px; }
  .muted, .empty { color: #52525b; }
  nav { margin: 16px 0; }
  a { color: #1d4ed8; }
  .totals { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 12px; margin: 16px 0; }
  .totals div { background: #fff; border: 1px solid #e4e4e7; border-radius: 10px; padding: 12px 16px; }
  .totals dt { color: #52525b; font-size: 13px; }
  .totals dd { margin: 0; font-size: 24px; font-weight: 600; font-variant-numeric: tabular-nums; }
  .download { display: inline-block; background: #1d4ed8; color: #fff; padding: 8px 14px; border-radius: 8px; text-decoration: none; font-weight: 500; }
  table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid #e4e4e7; border-radius: 10px; overflow: hidden; }
  th, td { text-align: left; padding: 6px 12px; border-bottom: 1px solid #f4f4f5; }
  th { font-size: 13px; color: #52525b; font-weight: 500; background: #fafafa; }
  .n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  .bar { width: 35%; }
  meter { width: 100%; }
  footer { margin-top: 32px; font-size: 13px; color: #71717a; }
</style>
</head>
<body>
<main>
<h1>Proof of play</h1>
<p class="muted">${escapeHtml(input.advertiserName)} · ${day(input.from)} to ${day(input.to)} (UTC)</p>
<nav aria-label="Period">Period: ${periods}</nav>
<dl class="totals">
  <div><dt>Plays</dt><dd data-total="plays">${count(summary.total.plays)}</dd></div>
  <div><dt>Play time</dt><dd data-total="duration">${formatPlayTime(summary.total.durationMs)}</dd></div>
  <div><dt>Screens</dt><dd data-total="screens">${count(summary.total.screens)}</dd></div>
</dl>
<p><a class="download" href="${link({ format: 'csv' })}" download>Download CSV</a> <span class="muted">every play, all time, one line each</span></p>
<h2>Plays by day</h2>
${summary.days.length ? `<table><thead><tr><th>Day (UTC)</th><th class="n">Plays</th><th class="n">Play time</th><th><span class="muted">Share</span></th></tr></thead><tbody>${dayRows}</tbody></table>` : empty}
<h2>Plays by screen</h2>
${summary.screens.length ? `<table><thead><tr><th>Screen</th><th class="n">Plays</th><th class="n">Play time</th></tr></thead><tbody>${screenRows}</tbody></table>` : empty}
<footer>Plays are counted when they start. This page shows only this advertiser's plays; keep its address private.</footer>
</main>
</body>
</html>
`;
}
