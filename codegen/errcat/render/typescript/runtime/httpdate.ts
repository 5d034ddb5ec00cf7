/**
 * HTTP dates (RFC 9110 section 5.6.7) as docs/sdk-contract.md section 2b
 * defines them, identically to the Python SDK: the three forms matched
 * exactly, the proleptic Gregorian calendar from year 0000, and the RFC 850
 * two-digit year read against the real current UTC date. No part of it
 * uses `Date` parsing or `Date.UTC` (which reads years 0 to 99 as 1900 to
 * 1999).
 *
 * @module
 */

const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const DAY_L = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTH = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
const TIME = "([0-9]{2}):([0-9]{2}):([0-9]{2})";
/** The three forms, compiled on first use (loading the package compiles no regular expression). */
let forms: [RegExp, RegExp, RegExp] | undefined;
function compiled(): [RegExp, RegExp, RegExp] {
  return (forms ??= [
    new RegExp(`^${DAY}, ([0-9]{2}) ${MONTH} ([0-9]{4}) ${TIME} GMT$`),
    new RegExp(`^${DAY_L}, ([0-9]{2})-${MONTH}-([0-9]{2}) ${TIME} GMT$`),
    new RegExp(`^${DAY} ${MONTH} ([0-9]{2}| [0-9]) ${TIME} ([0-9]{4})$`),
  ]);
}
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MS_PER_DAY = 86_400_000;

function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  return month === 1 ? (isLeap(year) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month]!;
}

/** Days from 1970-01-01 to the given proleptic Gregorian date (month 0-11), for any year ≥ 0. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 1 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 10) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The UTC calendar fields of a time in milliseconds since the epoch (the inverse of daysFromCivil). */
function civilFromMs(ms: number): [number, number, number, number, number, number] {
  const days = Math.floor(ms / MS_PER_DAY);
  const rest = Math.floor((ms - days * MS_PER_DAY) / 1000);
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 2 : mp - 10;
  const year = yoe + era * 400 + (month <= 1 ? 1 : 0);
  return [year, month, day, Math.floor(rest / 3600), Math.floor(rest / 60) % 60, rest % 60];
}

/** (year, month, day, hour, minute, second) as one number that orders as the tuple does. */
function rank(year: number, month: number, day: number, h: number, mi: number, s: number): number {
  return ((((year * 12 + month) * 32 + day) * 24 + h) * 60 + mi) * 61 + s;
}

/**
 * The RFC 850 year of two digits `yy`: the latest year ending in them for
 * which the timestamp is not more than 50 years after `now`.
 */
function resolveTwoDigitYear(yy: number, rest: [number, number, number, number, number], now: number): number {
  const [ny, nmo, nd, nh, nmi, ns] = civilFromMs(now);
  const limit = rank(ny + 50, nmo, nd, nh, nmi, ns);
  let year = ny + 50 - ((((ny + 50 - yy) % 100) + 100) % 100);
  while (rank(year, ...rest) > limit) year -= 100;
  return year;
}

/**
 * An HTTP-date (IMF-fixdate, or the obsolete RFC 850 and asctime forms) in
 * milliseconds since the epoch, or undefined when `value` is not one.
 *
 * @param value - The header value, matched exactly (case-sensitive, no surrounding spaces).
 * @param now - The current time in milliseconds since the epoch (default `Date.now()`),
 *   against which an RFC 850 two-digit year is read.
 */
export function parseHttpDate(value: string, now: number = Date.now()): number | undefined {
  if (typeof value !== "string") return undefined;
  const [IMF_FIXDATE, RFC850_DATE, ASCTIME_DATE] = compiled();
  let m: RegExpExecArray | null;
  let year: number, month: number, day: string, time: string[];
  if ((m = IMF_FIXDATE.exec(value)) !== null) {
    [day, month, year, time] = [m[1]!, MONTHS.indexOf(m[2]!), Number(m[3]), m.slice(4, 7)];
  } else if ((m = RFC850_DATE.exec(value)) !== null) {
    [day, month, year, time] = [m[1]!, MONTHS.indexOf(m[2]!), -1, m.slice(4, 7)];
  } else if ((m = ASCTIME_DATE.exec(value)) !== null) {
    [day, month, year, time] = [m[2]!, MONTHS.indexOf(m[1]!), Number(m[6]), m.slice(3, 6)];
  } else {
    return undefined;
  }
  const d = Number(day.trim());
  const [h, mi, s] = time.map(Number) as [number, number, number];
  if (h > 23 || mi > 59 || s > 60 || d < 1) return undefined;
  if (year === -1) year = resolveTwoDigitYear(Number(m[3]), [month, d, h, mi, s], Math.floor(now));
  if (d > daysInMonth(year, month)) return undefined;
  return daysFromCivil(year, month, d) * MS_PER_DAY + ((h * 60 + mi) * 60 + s) * 1000;
}
