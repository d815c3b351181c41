//! The text model's writer (src/json_text.rs): every spelling reads back,
//! under the spec's reader (docs/canonical-json.md §6, written out below),
//! as the case it spells; the same value is spelled in many ways across
//! cases; only what JSON text cannot spell is inexpressible.

use difffuzz_kit::decode::{decode, Fault};
use difffuzz_kit::json_text::Text;
use difffuzz_kit::Reason;
use rmpv::Value as Mp;

fn encode(v: &Mp) -> Vec<u8> {
    let mut out = Vec::new();
    rmpv::encode::write_value(&mut out, v).unwrap();
    out
}

fn text_of(v: &Mp) -> Result<String, Reason> {
    match decode(&mut Text, &encode(v)) {
        Ok(t) => Ok(t.as_str().to_owned()),
        Err(Fault::Inexpressible(why)) => Err(why.reason),
        Err(e) => panic!("{e:?}"),
    }
}

fn big(digits: &str) -> Mp {
    Mp::Ext(1, digits.as_bytes().to_vec())
}

fn utf16(units: &[u16]) -> Mp {
    Mp::Ext(2, units.iter().flat_map(|u| u.to_le_bytes()).collect())
}

fn obj(members: Vec<(&str, Mp)>) -> Mp {
    Mp::Map(members.into_iter().map(|(k, v)| (Mp::from(k), v)).collect())
}

/// The spec's reader, into the wire's values: integers past 64 bits as ext
/// 1, strings with a lone surrogate as ext 2, maps with repeats kept.
struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && b" \t\n\r".contains(&self.s[self.i]) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) {
        assert_eq!(self.s[self.i] as char, c as char, "at {}", self.i);
        self.i += 1;
    }
    fn value(&mut self) -> Mp {
        self.ws();
        let v = match self.s[self.i] {
            b'{' => {
                self.i += 1;
                let mut members = Vec::new();
                self.ws();
                if self.s[self.i] == b'}' {
                    self.i += 1;
                } else {
                    loop {
                        self.ws();
                        let k = self.string();
                        self.ws();
                        self.eat(b':');
                        members.push((k, self.value()));
                        self.i += 1;
                        if self.s[self.i - 1] == b'}' {
                            break;
                        }
                    }
                }
                Mp::Map(members)
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s[self.i] == b']' {
                    self.i += 1;
                } else {
                    loop {
                        items.push(self.value());
                        self.i += 1;
                        if self.s[self.i - 1] == b']' {
                            break;
                        }
                    }
                }
                Mp::Array(items)
            }
            b'"' => self.string(),
            _ => self.scalar(),
        };
        self.ws();
        v
    }
    fn scalar(&mut self) -> Mp {
        let start = self.i;
        while self.i < self.s.len() && !b",]} \t\r\n".contains(&self.s[self.i]) {
            self.i += 1;
        }
        let word = std::str::from_utf8(&self.s[start..self.i]).unwrap();
        match word {
            "null" => Mp::Nil,
            "true" => Mp::Boolean(true),
            "false" => Mp::Boolean(false),
            "NaN" => Mp::F64(f64::NAN),
            "Infinity" => Mp::F64(f64::INFINITY),
            "-Infinity" => Mp::F64(f64::NEG_INFINITY),
            _ if word.contains(['.', 'e', 'E']) => Mp::F64(word.parse().unwrap()),
            _ => word
                .parse::<i64>()
                .map(Mp::from)
                .or_else(|_| word.parse::<u64>().map(Mp::from))
                .unwrap_or_else(|_| big(word)),
        }
    }
    fn string(&mut self) -> Mp {
        self.eat(b'"');
        let mut units: Vec<u16> = Vec::new();
        loop {
            let rest = std::str::from_utf8(&self.s[self.i..]).unwrap();
            let c = rest.chars().next().unwrap();
            self.i += c.len_utf8();
            match c {
                '"' => break,
                '\\' => {
                    let e = self.s[self.i];
                    self.i += 1;
                    let u = match e {
                        b'u' => {
                            let hex = std::str::from_utf8(&self.s[self.i..self.i + 4]).unwrap();
                            self.i += 4;
                            u16::from_str_radix(hex, 16).unwrap()
                        }
                        b'b' => 8,
                        b't' => 9,
                        b'n' => 10,
                        b'f' => 12,
                        b'r' => 13,
                        _ => u16::from(e),
                    };
                    units.push(u);
                }
                _ => {
                    assert!(c >= ' ', "raw control character");
                    units.extend(c.encode_utf16(&mut [0; 2]).iter());
                }
            }
        }
        String::from_utf16(&units).map_or_else(|_| utf16(&units), Mp::from)
    }
}

fn read(text: &str) -> Mp {
    let mut r = Reader {
        s: text.as_bytes(),
        i: 0,
    };
    let v = r.value();
    assert_eq!(r.i, text.len(), "trailing text in {text:?}");
    v
}

fn edges() -> Vec<Mp> {
    vec![
        Mp::Nil,
        Mp::from(true),
        Mp::from(0),
        Mp::from(i64::MIN),
        Mp::from(u64::MAX),
        big("18446744073709551616"),
        big(&"9".repeat(400)),
        Mp::F64(0.0),
        Mp::F64(-0.0),
        Mp::F64(100.0),
        Mp::F64(1e21),
        Mp::F64(1e-7),
        Mp::F64(1.5e-8),
        Mp::F64(5e-324),
        Mp::F64(f64::MAX),
        Mp::F64(-2.5),
        Mp::F64(f64::NAN),
        Mp::F64(f64::NEG_INFINITY),
        Mp::from(""),
        Mp::from("A/\"\\\u{8}\u{c}\n\r\t\0\u{1f}\u{7f}"),
        Mp::from("é€😀"),
        utf16(&[0xD800]),
        utf16(&[0x61, 0xDC00, 0xD800, 0xD83D, 0xDE00]),
        Mp::Array(vec![]),
        Mp::Map(vec![]),
        obj(vec![("a", Mp::from(1)), ("a", Mp::F64(2.0))]),
    ]
}

/// A deterministic random value with the edges' ingredients (xorshift).
fn random_value(s: &mut u64, depth: u32) -> Mp {
    let mut rand = |n: u64| {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s % n
    };
    let pieces = [
        "\"", "\\", "/", "\0", "\n", "\u{1f}", "a", "\u{7f}", "é", "\u{feff}", "😀",
    ];
    match rand(if depth > 0 { 9 } else { 5 }) {
        0 => [Mp::Nil, Mp::from(true), Mp::from(false)][rand(3) as usize].clone(),
        1 => Mp::from((rand(u64::MAX) >> rand(64)) as i64),
        2 => Mp::F64(f64::from_bits(rand(u64::MAX))),
        3 => Mp::F64([0.0, 1.0, 0.1, 1e22, 1e-300, 123.456, 2f64.powi(60)][rand(7) as usize]),
        4 => Mp::from(
            (0..rand(8))
                .map(|_| pieces[rand(11) as usize])
                .collect::<String>(),
        ),
        5 | 6 => Mp::Array((0..rand(4)).map(|_| random_value(s, depth - 1)).collect()),
        _ => Mp::Map(
            (0..rand(4))
                .map(|_| (random_value(s, 0), random_value(s, depth - 1)))
                .filter(|(k, _)| k.is_str())
                .collect(),
        ),
    }
}

#[test]
fn every_spelling_reads_back_as_its_case() {
    let mut s = 88172645463325252;
    let randoms = (0..2000).map(|_| random_value(&mut s, 4));
    for v in edges().into_iter().chain(randoms) {
        let v = match v {
            Mp::F64(x) if x.is_nan() => Mp::F64(f64::NAN), // one NaN, as the reader makes it
            v => v,
        };
        let text = text_of(&v).unwrap();
        assert_eq!(encode(&read(&text)), encode(&v), "{v} as {text:?}");
    }
}

#[test]
fn the_same_value_is_spelled_many_ways_one_way_per_value() {
    let leaves = [
        Mp::from("A/\"é😀\n"),
        Mp::F64(100.0),
        Mp::F64(-0.00015),
        obj(vec![("k", Mp::Nil)]),
    ];
    for leaf in leaves {
        let mut seen = std::collections::HashSet::new();
        for i in 0..200 {
            let v = Mp::Array(vec![Mp::from(i), leaf.clone()]);
            let text = text_of(&v).unwrap();
            assert_eq!(text_of(&v).unwrap(), text);
            seen.insert(text[text.find(',').unwrap() + 1..].to_owned());
        }
        assert!(seen.len() >= 20, "{leaf}: {} spellings", seen.len());
    }
}

#[test]
fn the_golden_line_is_the_same_in_every_kit() {
    let n = Mp::Array(vec![
        Mp::from(-12),
        Mp::F64(1.5),
        Mp::F64(100.0),
        Mp::F64(0.0),
        Mp::F64(1e-9),
        big("18446744073709551616"),
    ]);
    let m = Mp::Array(vec![
        Mp::Nil,
        Mp::from(true),
        Mp::from(false),
        utf16(&[0xD800]),
    ]);
    let v = obj(vec![
        ("tool_name", Mp::from("a/\"é😀\n")),
        ("args", obj(vec![("n", n), ("n", m)])),
    ]);
    let want = "\n{\"tool_\\u006Eame\"\n  :\"a\\/\\u0022é😀\\n\",  \"args\":\t{\n\"n\"\n  :[  -12,1.5\r\n, 0.1e+3,\t0.0E0,0.1e-8,\r\n18446744073709551616],\"n\":\n  [null\n,\ntrue,\tfalse, \"\\uD800\"]}}\n  ";
    assert_eq!(text_of(&v).unwrap(), want);
}

#[test]
fn only_what_json_text_cannot_spell_is_inexpressible() {
    let cases = [
        (
            Mp::Array(vec![Mp::Binary(vec![1])]),
            Reason::UnsupportedValue,
        ),
        (Mp::Ext(9, vec![]), Reason::UnsupportedValue),
        (Mp::Map(vec![(Mp::from(1), Mp::Nil)]), Reason::NonStringKey),
        (
            obj(vec![(
                "a",
                Mp::Map(vec![(Mp::from("b"), Mp::Nil), (Mp::Array(vec![]), Mp::Nil)]),
            )]),
            Reason::NonStringKey,
        ),
    ];
    for (v, reason) in cases {
        assert_eq!(text_of(&v), Err(reason), "{v}");
    }
}
