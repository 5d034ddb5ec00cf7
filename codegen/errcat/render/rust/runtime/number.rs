//! Numbers as the envelope writes them: as ECMAScript's `Number::toString`
//! writes a double.

/// The shortest digits that read back to `x` (finite, not zero) and its
/// decimal exponent `n`: `x = 0.d1d2... * 10^n`.
fn shortest(x: f64) -> (String, i32) {
    let sci = format!("{:e}", x.abs());
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let digits = digits.trim_end_matches('0').to_owned();
    let e: i32 = exponent.parse().unwrap_or(0);
    (
        if digits.is_empty() {
            "0".to_owned()
        } else {
            digits
        },
        e + 1,
    )
}

/// `x` as `JSON.stringify` writes it (`30`, `0.5`, `1e-7`, `1e+21`); a
/// non-finite number as `1e400` or `-1e400`, `-0` as `0`.
pub(crate) fn js_number(x: f64) -> String {
    if !x.is_finite() {
        return if x < 0.0 { "-1e400" } else { "1e400" }.to_owned();
    }
    if x == 0.0 {
        return "0".to_owned();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let (d, n) = shortest(x);
    let k = d.len() as i32;
    let body = if k <= n && n <= 21 {
        format!("{d}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &d[..n as usize], &d[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{d}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let exp = if e < 0 {
            format!("e{e}")
        } else {
            format!("e+{e}")
        };
        if k == 1 {
            format!("{d}{exp}")
        } else {
            format!("{}.{}{exp}", &d[..1], &d[1..])
        }
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::js_number;

    #[test]
    fn numbers_are_written_as_ecmascript_writes_them() {
        let cases = [
            (30.0, "30"),
            (0.5, "0.5"),
            (1e-7, "1e-7"),
            (1e21, "1e+21"),
            (123456789012345680000.0, "123456789012345680000"),
            (-0.0, "0"),
            (0.000001, "0.000001"),
            (1.5e300, "1.5e+300"),
            (-2.5e-10, "-2.5e-10"),
            (f64::INFINITY, "1e400"),
            (f64::NEG_INFINITY, "-1e400"),
            (0.1 + 0.2, "0.30000000000000004"),
        ];
        for (x, want) in cases {
            assert_eq!(js_number(x), want, "{x:e}");
        }
    }
}
