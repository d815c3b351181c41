//! The text model (docs/your-sdk.md, "The text model"): a case as the JSON
//! text a tool call's arguments arrive in, for an SDK that parses them with
//! its own parser (`serde_json::from_str`) before canonicalizing.
//!
//! The text spells each value in one of many equivalent ways (characters
//! raw or escaped, floats in four notations, whitespace between tokens), all
//! read back as the same value by the spec's reader (docs/canonical-json.md
//! §6). The choices come from a small generator fed with the value's own
//! content, so the same value always gets the same text (a replay or a
//! minimization step sees what the run saw) while different cases spell
//! alike things differently. The rules, and so the text of every value, are
//! the same in all four kits.
//!
//! The model builds the case as a small tree (the decoder hands it one item
//! at a time and never says where a case starts) and writes the text the
//! first time the function asks for it, so the text's cost is counted with
//! the function's.

use std::cell::OnceCell;
use std::fmt::Write as _;
use std::ops::Deref;

use crate::{Built, Inexpressible, Model, ModelKind, Reason};

/// The text model: the function gets a [`JsonText`], which derefs to `str`.
/// Only what JSON text cannot spell is inexpressible: bin data (and other
/// values outside the spec) and keys that are not strings.
#[derive(Debug, Clone, Copy, Default)]
pub struct Text;

/// One case as JSON text (`&*case` or [`JsonText::as_str`]).
#[derive(Debug)]
pub struct JsonText {
    node: Node,
    text: OnceCell<String>,
}

impl JsonText {
    /// The case's text, written on first use.
    pub fn as_str(&self) -> &str {
        self.text.get_or_init(|| write_text(&self.node))
    }
}

impl Deref for JsonText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

/// A value of the exact model, as the decoder reads it.
#[derive(Debug)]
enum Node {
    Null,
    Bool(bool),
    Int(String), // its decimal digits
    Float(f64),
    Str(Str),
    Array(Vec<Node>),
    Object(Vec<(Str, Node)>),
}

/// A string as it arrived: UTF-8, or UTF-16 units that may hold lone
/// surrogates.
#[derive(Debug)]
enum Str {
    Utf8(String),
    Utf16(Vec<u16>),
}

/// A key being built (opaque).
#[derive(Debug)]
pub struct Key(Str);

/// An array being built (opaque).
#[derive(Debug)]
pub struct Items(Vec<Node>);

/// An object being built (opaque).
#[derive(Debug)]
pub struct Members(Vec<(Str, Node)>);

fn node(n: Node) -> Built<JsonText> {
    Ok(JsonText {
        node: n,
        text: OnceCell::new(),
    })
}

impl Model for Text {
    type Value = JsonText;
    type Key = Key;
    type Array = Items;
    type Object = Members;

    const KIND: ModelKind = ModelKind::Text;
    const INEXPRESSIBLE: &'static [Reason] = &[Reason::NonStringKey, Reason::UnsupportedValue];

    fn null(&mut self) -> Built<JsonText> {
        node(Node::Null)
    }
    fn bool(&mut self, b: bool) -> Built<JsonText> {
        node(Node::Bool(b))
    }
    fn int(&mut self, i: i128) -> Built<JsonText> {
        node(Node::Int(i.to_string()))
    }
    fn big_int(&mut self, decimal: &str) -> Built<JsonText> {
        // `-0` is the integer 0, and the text spells integers as their digits
        node(Node::Int(
            if decimal == "-0" { "0" } else { decimal }.to_owned(),
        ))
    }
    fn float(&mut self, f: f64) -> Built<JsonText> {
        node(Node::Float(f))
    }
    fn str(&mut self, s: &str) -> Built<JsonText> {
        node(Node::Str(Str::Utf8(s.to_owned())))
    }
    fn utf16(&mut self, units: Vec<u16>) -> Built<JsonText> {
        node(Node::Str(Str::Utf16(units)))
    }
    fn unsupported(&mut self, what: &str) -> Built<JsonText> {
        Err(Inexpressible::new(
            Reason::UnsupportedValue,
            format!("{what}: JSON text cannot spell it"),
        ))
    }
    fn array(&mut self, capacity: usize) -> Built<Items> {
        Ok(Items(Vec::with_capacity(capacity)))
    }
    fn push(&mut self, array: &mut Items, item: JsonText) -> Built<()> {
        array.0.push(item.node);
        Ok(())
    }
    fn end_array(&mut self, array: Items) -> Built<JsonText> {
        node(Node::Array(array.0))
    }
    fn object(&mut self, capacity: usize) -> Built<Members> {
        Ok(Members(Vec::with_capacity(capacity)))
    }
    fn key_str(&mut self, s: &str) -> Built<Key> {
        Ok(Key(Str::Utf8(s.to_owned())))
    }
    fn key_utf16(&mut self, units: Vec<u16>) -> Built<Key> {
        Ok(Key(Str::Utf16(units)))
    }
    fn non_string_key(&mut self) -> Built<()> {
        Err(Inexpressible::new(
            Reason::NonStringKey,
            "JSON text cannot spell a key that is not a string",
        ))
    }
    fn key_value(&mut self, _key: JsonText) -> Built<Key> {
        unreachable!("non_string_key refuses first")
    }
    fn insert(&mut self, object: &mut Members, key: Key, value: JsonText) -> Built<()> {
        object.0.push((key.0, value.node));
        Ok(())
    }
    fn end_object(&mut self, object: Members) -> Built<JsonText> {
        node(Node::Object(object.0))
    }
}

/// The whitespace a pick of 10..15 (of 16) writes between tokens.
const SPACES: [&str; 6] = [" ", "  ", "\n", "\t", "\r\n", "\n  "];

/// One case's text. `s` is the spelling generator's state: `mix` folds the
/// value's content in as it is written, `pick` draws a choice (a Weyl step
/// through murmur3's finalizer), in 32-bit arithmetic as in every kit.
struct Writer {
    out: String,
    s: u32,
}

fn write_text(value: &Node) -> String {
    let mut w = Writer {
        out: String::new(),
        s: 0x811C_9DC5,
    };
    w.space();
    w.value(value);
    w.space();
    w.out
}

impl Writer {
    fn mix(&mut self, x: u32) {
        self.s = (self.s ^ x).wrapping_mul(0x0100_0193);
    }

    fn pick(&mut self, n: u32) -> u32 {
        self.s = self.s.wrapping_add(0x9E37_79B9);
        let mut z = self.s;
        z = (z ^ (z >> 16)).wrapping_mul(0x85EB_CA6B);
        z = (z ^ (z >> 13)).wrapping_mul(0xC2B2_AE35);
        (z ^ (z >> 16)) % n
    }

    fn space(&mut self) {
        let r = self.pick(16);
        if r >= 10 {
            self.out.push_str(SPACES[(r - 10) as usize]);
        }
    }

    fn value(&mut self, v: &Node) {
        match v {
            Node::Null => self.word(1, "null"),
            Node::Bool(true) => self.word(2, "true"),
            Node::Bool(false) => self.word(3, "false"),
            Node::Int(digits) => self.integer(digits),
            Node::Float(x) => self.float(*x),
            Node::Str(s) => self.string(s),
            Node::Array(items) => self.array(items),
            Node::Object(members) => self.object(members),
        }
    }

    fn word(&mut self, tag: u32, text: &str) {
        self.mix(tag);
        self.out.push_str(text);
    }

    /// An integer's decimal digits, its only spelling: an exponent or a
    /// fraction would make it a float in the spec's reader.
    fn integer(&mut self, digits: &str) {
        for b in digits.bytes() {
            self.mix(u32::from(b));
        }
        self.out.push_str(digits);
    }

    fn array(&mut self, items: &[Node]) {
        self.mix(0x5B);
        self.mix(items.len() as u32);
        self.out.push('[');
        if items.is_empty() {
            self.space();
        }
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.space();
            self.value(x);
            self.space();
        }
        self.out.push(']');
    }

    fn object(&mut self, members: &[(Str, Node)]) {
        self.mix(0x7B);
        self.mix(members.len() as u32);
        self.out.push('{');
        if members.is_empty() {
            self.space();
        }
        for (i, (key, x)) in members.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.space();
            self.string(key);
            self.space();
            self.out.push(':');
            self.space();
            self.value(x);
            self.space();
        }
        self.out.push('}');
    }

    /// Each code point raw or escaped: raw only where the reader maps it to
    /// the same code point, so never a quote, a backslash, a control
    /// character or a (lone) surrogate.
    fn string(&mut self, s: &Str) {
        self.mix(0x22);
        self.out.push('"');
        match s {
            Str::Utf8(s) => s.chars().for_each(|c| self.char(c as u32)),
            Str::Utf16(units) => char::decode_utf16(units.iter().copied()).for_each(|c| {
                self.char(c.map_or_else(|e| u32::from(e.unpaired_surrogate()), u32::from))
            }),
        }
        self.out.push('"');
    }

    fn char(&mut self, c: u32) {
        self.mix(c);
        match c {
            0x22 | 0x5C => {
                if self.pick(2) == 0 {
                    self.out.push('\\');
                    self.out.push(char::from(c as u8));
                    return;
                }
            }
            0x2F => match self.pick(3) {
                0 => return self.out.push('/'),
                1 => return self.out.push_str("\\/"),
                _ => {}
            },
            0..=0x1F => {
                let short = match c {
                    0x08 => "\\b",
                    0x09 => "\\t",
                    0x0A => "\\n",
                    0x0C => "\\f",
                    0x0D => "\\r",
                    _ => "",
                };
                if !short.is_empty() && self.pick(2) == 0 {
                    return self.out.push_str(short);
                }
            }
            0xD800..=0xDFFF => {}
            _ => {
                if self.pick(8) < 7 {
                    return self.out.push(char::from_u32(c).expect("a scalar value"));
                }
            }
        }
        self.escape(c);
    }

    /// \uXXXX (a surrogate pair past the BMP), its hex all upper or all lower.
    fn escape(&mut self, c: u32) {
        let upper = self.pick(2) == 0;
        let mut unit = |u: u32| {
            let _ = if upper {
                write!(self.out, "\\u{u:04X}")
            } else {
                write!(self.out, "\\u{u:04x}")
            };
        };
        if c >= 0x10000 {
            let c = c - 0x10000;
            unit(0xD800 + (c >> 10));
            unit(0xDC00 + (c & 0x3FF));
        } else {
            unit(c);
        }
    }

    /// Four notations of the shortest digits D and exponent X (x = d.ddd ×
    /// 10^X), each with a fraction or an exponent so that the reader takes a
    /// float: 0 scientific (1.5e2, 1.0E+2), 1 plain (150.0; only for X in
    /// [-7, 20], else 2), 2 integer mantissa (15e1), 3 fraction mantissa
    /// (0.15e3). NaN and the infinities are extended JSON's bare tokens,
    /// which serde_json refuses: a finding about the SDK, not one to hide.
    fn float(&mut self, x: f64) {
        if x.is_nan() {
            return self.word(0x4E, "NaN");
        }
        if x.is_infinite() {
            return if x > 0.0 {
                self.word(0x49, "Infinity")
            } else {
                self.word(0x69, "-Infinity")
            };
        }
        let neg = x.is_sign_negative();
        let sci = format!("{:e}", x.abs()); // d.ddde-X, shortest
        let (mantissa, exp) = sci.split_once('e').expect("an exponent");
        let digits = mantissa.replace('.', "");
        let exp: i32 = exp.parse().expect("an integer exponent");
        let key = format!("{}{digits}e{exp}", if neg { "-" } else { "" });
        key.bytes().for_each(|b| self.mix(u32::from(b)));
        if neg {
            self.out.push('-');
        }
        let mut form = self.pick(4);
        if form == 1 && !(-7..=20).contains(&exp) {
            form = 2;
        }
        match form {
            0 => {
                self.out.push_str(&digits[..1]);
                if digits.len() > 1 {
                    self.out.push('.');
                    self.out.push_str(&digits[1..]);
                } else if self.pick(2) == 1 {
                    self.out.push_str(".0");
                }
                self.exponent(exp);
            }
            1 => self.out.push_str(&plain(&digits, exp)),
            2 => {
                self.out.push_str(&digits);
                self.exponent(exp - digits.len() as i32 + 1);
            }
            _ => {
                self.out.push_str("0.");
                self.out.push_str(&digits);
                self.exponent(exp + 1);
            }
        }
    }

    fn exponent(&mut self, k: i32) {
        let e = if self.pick(2) == 0 { 'e' } else { 'E' };
        self.out.push(e);
        if k < 0 {
            self.out.push('-');
        } else if self.pick(2) == 1 {
            self.out.push('+');
        }
        if self.pick(4) == 0 {
            self.out.push('0');
        }
        let _ = write!(self.out, "{}", k.unsigned_abs());
    }
}

/// D × 10^(X-len(D)+1) with a point and at least one digit after it.
fn plain(digits: &str, exp: i32) -> String {
    let n = digits.len() as i32;
    if exp < 0 {
        return format!("0.{}{digits}", "0".repeat((-exp - 1) as usize));
    }
    if n <= exp + 1 {
        return format!("{digits}{}.0", "0".repeat((exp + 1 - n) as usize));
    }
    let (whole, frac) = digits.split_at((exp + 1) as usize);
    format!("{whole}.{frac}")
}
