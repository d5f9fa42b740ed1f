/**
 * Dates as feeds and alerts write them, to epoch milliseconds, without Date.parse: Date.parse reads a date without
 * an offset in the process time zone, and nothing here may depend on that. A date without an offset is UTC.
 */

// prettier-ignore
const MONTHS: Record<string, number> = {
  jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11,
};

/** RFC 822 zone names and the abbreviations feeds use most, in minutes east of UTC. */
// prettier-ignore
const ZONE_ABBREVIATIONS: Record<string, number> = {
  UT: 0, UTC: 0, GMT: 0, Z: 0, WET: 0, BST: 60, IST: 60, WEST: 60, CET: 60, MET: 60, CEST: 120, MEST: 120,
  EET: 120, EEST: 180, MSK: 180, EST: -300, EDT: -240, CST: -360, CDT: -300, MST: -420, MDT: -360, PST: -480,
  PDT: -420, AKST: -540, AKDT: -480, HST: -600, JST: 540, KST: 540, AEST: 600, AEDT: 660, ACST: 570, ACDT: 630,
  AWST: 480, NZST: 720, NZDT: 780,
};

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const RFC822 =
  /^(?:[A-Za-z]{2,9},?\s+)?(\d{1,2})[\s-]+([A-Za-z]{3})[A-Za-z]*\.?[\s-]+(\d{2}|\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([A-Za-z]{1,5}|[+-]\d{4}|[+-]\d{2}:\d{2})?$/;

export function parseDate(value: string | undefined): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const iso = ISO.exec(text);
  if (iso) {
    const [, year, month, day, hour, minute, second, fraction, zone] = iso;
    const milliseconds = fraction ? Math.round(Number(`0.${fraction}`) * 1000) : 0;
    const utc = Date.UTC(
      Number(year),
      Number(month) - 1,
      Number(day),
      Number(hour ?? 0),
      Number(minute ?? 0),
      Number(second ?? 0),
      milliseconds,
    );

    return checked(utc - offsetMinutes(zone) * 60_000, Number(month), Number(day));
  }
  const rfc = RFC822.exec(text);
  if (rfc) {
    const [, day, monthName, yearText, hour, minute, second, zone] = rfc;
    const month = MONTHS[(monthName ?? '').toLowerCase()];
    if (month === undefined) return undefined;
    // RFC 822's two-digit years: 00–49 are 20xx, 50–99 are 19xx (as RFC 2822 §4.3 reads them).
    const year = yearText?.length === 2 ? (Number(yearText) < 50 ? 2000 : 1900) + Number(yearText) : Number(yearText);
    const utc = Date.UTC(year, month, Number(day), Number(hour), Number(minute), Number(second ?? 0));

    return checked(utc - offsetMinutes(zone) * 60_000, month + 1, Number(day));
  }

  return undefined;
}

function offsetMinutes(zone: string | undefined): number {
  if (!zone) return 0;
  const numeric = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  if (numeric) {
    const minutes = Number(numeric[2]) * 60 + Number(numeric[3] ?? 0);

    return numeric[1] === '-' ? -minutes : minutes;
  }

  // An unknown abbreviation reads as UTC: a slightly wrong time sorts the item better than no time.
  return ZONE_ABBREVIATIONS[zone.toUpperCase()] ?? 0;
}

function checked(epoch: number, month: number, day: number): number | undefined {
  const isValid = Number.isFinite(epoch) && month >= 1 && month <= 12 && day >= 1 && day <= 31;

  return isValid ? epoch : undefined;
}
