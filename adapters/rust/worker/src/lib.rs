//! The exact model for `canonjson`: the kit decodes each case straight into
//! a [`canonjson::Value`], which is what the library takes, so no case is
//! copied on its way in. Kept apart from `main` so the tests can decode with
//! it too.

use canonjson::{BigInt, Key, Value};
use difffuzz_kit::pool::{StringPool, VecPool};
use difffuzz_kit::{Built, Model, ModelKind, Reason};

/// The exact model over `canonjson::Value`, with pools for the strings and
/// vectors of the cases it gets back (see [`difffuzz_kit::pool`]).
#[derive(Debug, Default)]
pub struct Exact {
    strings: StringPool,
    arrays: VecPool<Value>,
    objects: VecPool<(Key, Value)>,
}

impl Model for Exact {
    type Value = Value;
    type Key = Key;
    type Array = Vec<Value>;
    type Object = Vec<(Key, Value)>;

    const KIND: ModelKind = ModelKind::Exact;
    const INEXPRESSIBLE: &'static [Reason] = &[];

    fn null(&mut self) -> Built<Value> {
        Ok(Value::Null)
    }
    fn bool(&mut self, b: bool) -> Built<Value> {
        Ok(Value::Bool(b))
    }
    fn int(&mut self, i: i128) -> Built<Value> {
        Ok(Value::Int(i))
    }
    fn big_int(&mut self, decimal: &str) -> Built<Value> {
        // The kit checked the syntax; BigInt::parse also turns -0 into 0.
        Ok(BigInt::parse(decimal).map_or_else(
            || Value::Unsupported(format!("bad integer {decimal:?}")),
            Value::BigInt,
        ))
    }
    fn float(&mut self, f: f64) -> Built<Value> {
        Ok(Value::Float(f))
    }
    fn str(&mut self, s: &str) -> Built<Value> {
        Ok(Value::Str(self.strings.copy(s)))
    }
    fn utf16(&mut self, units: Vec<u16>) -> Built<Value> {
        Ok(Value::from_utf16(units))
    }
    fn unsupported(&mut self, what: &str) -> Built<Value> {
        Ok(Value::Unsupported(what.to_owned()))
    }
    fn array(&mut self, capacity: usize) -> Built<Vec<Value>> {
        Ok(self.arrays.take(capacity))
    }
    fn push(&mut self, array: &mut Vec<Value>, item: Value) -> Built<()> {
        array.push(item);
        Ok(())
    }
    fn end_array(&mut self, array: Vec<Value>) -> Built<Value> {
        Ok(Value::Array(array))
    }
    fn object(&mut self, capacity: usize) -> Built<Vec<(Key, Value)>> {
        Ok(self.objects.take(capacity))
    }
    fn key_str(&mut self, s: &str) -> Built<Key> {
        Ok(Key::Str(self.strings.copy(s)))
    }
    fn key_utf16(&mut self, units: Vec<u16>) -> Built<Key> {
        Ok(Key::from_utf16(units))
    }
    fn key_value(&mut self, key: Value) -> Built<Key> {
        Ok(Key::NonString(Box::new(key)))
    }
    fn insert(&mut self, object: &mut Vec<(Key, Value)>, key: Key, value: Value) -> Built<()> {
        object.push((key, value));
        Ok(())
    }
    fn end_object(&mut self, object: Vec<(Key, Value)>) -> Built<Value> {
        Ok(Value::Object(object))
    }

    /// Keeps the case's strings and vectors for the cases read next.
    fn recycle(&mut self, value: Value) {
        match value {
            Value::Str(s) | Value::Unsupported(s) => self.strings.give(s),
            Value::Array(mut items) => {
                items.drain(..).for_each(|item| self.recycle(item));
                self.arrays.give(items);
            }
            Value::Object(mut members) => {
                for (key, value) in members.drain(..) {
                    if let Key::Str(s) = key {
                        self.strings.give(s);
                    }
                    self.recycle(value);
                }
                self.objects.give(members);
            }
            _ => {}
        }
    }
}
