//! The headers an error reads (`x-request-id`, `Retry-After-Ms`,
//! `Retry-After`) and HTTP dates (docs/sdk-contract.md section 2b).

use std::time::{SystemTime, UNIX_EPOCH};

use crate::catalogue::RETRY_AFTER_MAX_MS;

/// Response headers as name-value pairs, in the order received.
pub type Headers = [(String, String)];

/// The value of `name` (case-insensitive), repeated ones joined with `", "` in order.
pub(crate) fn header(headers: &Headers, name: &str) -> Option<String> {
    let values: Vec<&str> = headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
        .collect();
    (!values.is_empty()).then(|| values.join(", "))
}

fn digits(value: &str) -> Option<u64> {
    let ok = !value.is_empty() && value.len() <= 15 && value.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| value.parse().ok()).flatten()
}

/// A delay cut to the catalogue's ceiling.
pub(crate) fn bounded(ms: u64) -> u64 {
    ms.min(RETRY_AFTER_MAX_MS)
}

/// Milliseconds since the epoch now (the system clock).
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The retry delay the headers give: `Retry-After-Ms`, else `Retry-After`.
pub(crate) fn header_delay(headers: &Headers, now: i64) -> Option<u64> {
    if let Some(ms) = header(headers, "retry-after-ms")
        .as_deref()
        .and_then(digits)
    {
        return Some(bounded(ms));
    }
    let value = header(headers, "retry-after")?;
    if let Some(s) = digits(&value) {
        return Some(bounded(s * 1000));
    }
    let when = http_date_ms(&value, now)?;
    Some(bounded((when - now).max(0) as u64))
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const LONG_DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];
const MS_PER_DAY: i64 = 86_400_000;

fn num(text: &str) -> Option<i64> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok())?
}

fn leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn month_days(year: i64, month: i64) -> i64 {
    [
        31,
        if leap(year) { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ][(month - 1) as usize]
}

fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let doy = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_ms(ms: i64) -> [i64; 6] {
    let days = ms.div_euclid(MS_PER_DAY);
    let rest = ms.rem_euclid(MS_PER_DAY) / 1000;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    [year, month, day, rest / 3600, rest / 60 % 60, rest % 60]
}

fn two_digit_year(yy: i64, rest: [i64; 5], now: i64) -> i64 {
    let n = civil_from_ms(now);
    let limit = [n[0] + 50, n[1], n[2], n[3], n[4], n[5]];
    let mut year = n[0] + 50 - (n[0] + 50 - yy).rem_euclid(100);
    while [year, rest[0], rest[1], rest[2], rest[3], rest[4]] > limit {
        year -= 100;
    }
    year
}

/// (day, month, year text, hh, mm, ss) of one of the three forms, matched exactly.
fn fields(value: &str) -> Option<(&str, usize, &str, &str, &str, &str)> {
    let month = |m: &str| MONTHS.iter().position(|x| *x == m);
    let b = value.as_bytes();
    let time_ok = |t: &str| t.len() == 8 && &t[2..3] == ":" && &t[5..6] == ":";
    if b.len() == 29
        && DAYS.contains(&&value[..3])
        && &value[3..5] == ", "
        && value.ends_with(" GMT")
    {
        let (d, m, y, t) = (&value[5..7], &value[8..11], &value[12..16], &value[17..25]);
        if b[7] == b' ' && b[11] == b' ' && b[16] == b' ' && time_ok(t) {
            return Some((d, month(m)?, y, &t[..2], &t[3..5], &t[6..]));
        }
    }
    if let Some((day, rest)) = value.split_once(", ") {
        if LONG_DAYS.contains(&day) && rest.len() == 22 && rest.ends_with(" GMT") && rest.is_ascii()
        {
            let (d, m, y, t) = (&rest[..2], &rest[3..6], &rest[7..9], &rest[10..18]);
            if &rest[2..3] == "-" && &rest[6..7] == "-" && &rest[9..10] == " " && time_ok(t) {
                return Some((d, month(m)?, y, &t[..2], &t[3..5], &t[6..]));
            }
        }
    }
    if b.len() == 24
        && value.is_ascii()
        && DAYS.contains(&&value[..3])
        && b[3] == b' '
        && b[7] == b' '
    {
        let (m, d, t, y) = (&value[4..7], &value[8..10], &value[11..19], &value[20..]);
        let d = if d.starts_with(' ') && d.as_bytes()[1].is_ascii_digit() {
            &d[1..]
        } else {
            d
        };
        if b[10] == b' ' && b[19] == b' ' && time_ok(t) && (d.len() == 2 || b[8] == b' ') {
            return Some((d, month(m)?, y, &t[..2], &t[3..5], &t[6..]));
        }
    }
    None
}

/// Milliseconds since the epoch of an HTTP date, or `None` when `value` is not one.
pub fn http_date_ms(value: &str, now: i64) -> Option<i64> {
    if !value.is_ascii() {
        return None;
    }
    let (d, m, y, hh, mm, ss) = fields(value)?;
    let (day, hour, minute, second) = (num(d)?, num(hh)?, num(mm)?, num(ss)?);
    let month = m as i64 + 1;
    if day < 1 || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut year = num(y)?;
    if y.len() == 2 {
        year = two_digit_year(year, [month, day, hour, minute, second], now);
    }
    if day > month_days(year, month) {
        return None;
    }
    Some(
        days_from_civil(year, month, day) * MS_PER_DAY
            + ((hour * 60 + minute) * 60 + second) * 1000,
    )
}

#[cfg(test)]
mod tests {
    use super::http_date_ms;

    #[test]
    fn the_three_forms_are_read() {
        let imf = http_date_ms("Sun, 06 Nov 1994 08:49:37 GMT", 0);
        assert_eq!(imf, Some(784_111_777_000));
        assert_eq!(http_date_ms("Sun Nov  6 08:49:37 1994", 0), imf);
        assert_eq!(
            http_date_ms("Sunday, 06-Nov-94 08:49:37 GMT", 1_700_000_000_000),
            imf
        );
        assert_eq!(
            http_date_ms("Tue, 29 Feb 0000 00:00:00 GMT", 0),
            Some(-719_469 * 86_400_000)
        );
        assert_eq!(http_date_ms("Sun, 31 Nov 1994 08:49:37 GMT", 0), None);
        assert_eq!(http_date_ms("Sun,  6 Nov 1994 08:49:37 GMT", 0), None);
    }
}
