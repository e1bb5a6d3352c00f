//! JSON input for scene files: a value type that keeps keys in file order, refuses
//! duplicate keys, and nests as deep as a scene file may without using the thread's stack.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::text::json_string;
use crate::{Error, Result};

/// Deepest nesting of arrays and objects that a scene file may have (the top-level object
/// is level 1). Objects nest two levels at a time (an object, then its `children` array),
/// so this lets them go [`MAX_SAVE_DEPTH`](super::save::MAX_SAVE_DEPTH) deep, well past the 100,000 levels level editors
/// produce. Parsing holds stack frames for every open level, about 0.5 KiB in an
/// optimized build (several times that in a debug build), so the limit also bounds that
/// memory (to some 130 MiB when optimized) however the file is made.
pub(super) const MAX_NESTING: usize = 262_144;

/// A JSON value that keeps object keys in file order (so errors come in file order) and
/// refuses duplicate keys while parsing.
///
/// Scene files may nest 100,000 objects deep, so nothing on this type recurses: dropping,
/// comparing and printing walk a stack on the heap (derived impls would recurse once per
/// level and overflow the thread's stack).
pub(super) enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    /// Moves the values inside an array or object onto `stack`, leaving it empty.
    fn take_children(&mut self, stack: &mut Vec<Json>) {
        match self {
            Json::Array(items) => stack.append(items),
            Json::Object(fields) => stack.extend(fields.drain(..).map(|(_, v)| v)),
            _ => {}
        }
    }
}

impl Drop for Json {
    fn drop(&mut self) {
        // Each value is emptied before it is dropped, so the drop glue never goes deeper
        // than one level.
        let mut stack = Vec::new();
        self.take_children(&mut stack);
        while let Some(mut v) = stack.pop() {
            v.take_children(&mut stack);
        }
    }
}

impl PartialEq for Json {
    fn eq(&self, other: &Json) -> bool {
        let mut stack = vec![(self, other)];
        while let Some(pair) = stack.pop() {
            match pair {
                (Json::Null, Json::Null) => {}
                (Json::Bool(a), Json::Bool(b)) if a == b => {}
                (Json::Number(a), Json::Number(b)) if a == b => {}
                (Json::String(a), Json::String(b)) if a == b => {}
                (Json::Array(a), Json::Array(b)) if a.len() == b.len() => stack.extend(a.iter().zip(b)),
                (Json::Object(a), Json::Object(b)) if a.len() == b.len() => {
                    for ((ka, va), (kb, vb)) in a.iter().zip(b) {
                        if ka != kb {
                            return false;
                        }
                        stack.push((va, vb));
                    }
                }
                _ => return false,
            }
        }
        true
    }
}

impl std::fmt::Debug for Json {
    /// Compact JSON (numbers in Rust's round-trip form).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        enum Step<'j> {
            Value(&'j Json),
            Key(&'j str),
            Text(&'static str),
        }
        let mut stack = vec![Step::Value(self)];
        while let Some(step) = stack.pop() {
            match step {
                Step::Text(t) => f.write_str(t)?,
                Step::Key(k) => write!(f, "{}: ", json_string(k))?,
                Step::Value(Json::Null) => f.write_str("null")?,
                Step::Value(Json::Bool(b)) => write!(f, "{b}")?,
                Step::Value(Json::Number(n)) => write!(f, "{n:?}")?,
                Step::Value(Json::String(s)) => f.write_str(&json_string(s))?,
                Step::Value(Json::Array(items)) => {
                    f.write_str("[")?;
                    stack.push(Step::Text("]"));
                    for (i, item) in items.iter().enumerate().rev() {
                        stack.push(Step::Value(item));
                        if i > 0 {
                            stack.push(Step::Text(", "));
                        }
                    }
                }
                Step::Value(Json::Object(fields)) => {
                    f.write_str("{")?;
                    stack.push(Step::Text("}"));
                    for (i, (k, v)) in fields.iter().enumerate().rev() {
                        stack.push(Step::Value(v));
                        stack.push(Step::Key(k));
                        if i > 0 {
                            stack.push(Step::Text(", "));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Reads one JSON value `depth` levels down (the top level is 1), refusing arrays and
/// objects past [`MAX_NESTING`].
#[derive(Clone, Copy)]
struct JsonSeed {
    depth: usize,
}

impl JsonSeed {
    /// The seed for the values inside an array or object at this level, which must not be
    /// past the limit itself.
    fn inner<E: de::Error>(self) -> std::result::Result<JsonSeed, E> {
        if self.depth > MAX_NESTING {
            return Err(E::custom(format!(
                "arrays and objects nest deeper than {MAX_NESTING} levels"
            )));
        }
        Ok(JsonSeed {
            depth: self.depth + 1,
        })
    }
}

impl<'de> DeserializeSeed<'de> for JsonSeed {
    type Value = Json;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Json, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for JsonSeed {
    type Value = Json;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> std::result::Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_none<E: de::Error>(self) -> std::result::Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<Json, E> {
        Ok(Json::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Json, E> {
        Ok(Json::Number(v as f64))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Json, E> {
        Ok(Json::Number(v as f64))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Json, E> {
        Ok(Json::Number(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Json, E> {
        Ok(Json::String(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<Json, E> {
        Ok(Json::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Json, A::Error> {
        let inner = self.inner()?;
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(inner)? {
            items.push(v);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Json, A::Error> {
        let inner = self.inner()?;
        let mut fields: Vec<(String, Json)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!("duplicate key {}", json_string(&key))));
            }
            let value = map.next_value_seed(inner)?;
            fields.push((key, value));
        }
        Ok(Json::Object(fields))
    }
}

/// Parses JSON text, with syntax errors (duplicate keys included) located by line and column.
pub(super) fn parse_json(bytes: &[u8], file: &str) -> Result<Json> {
    // A byte order mark is not JSON, but editors on some systems add one; it carries no
    // meaning, so it is skipped rather than reported.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    // Read through `io::Read`, not as a slice: after an error serde_json still closes every
    // enclosing array and object, and with a slice each close works out the line and
    // column by counting from the start of the text, which takes quadratic time on an
    // error deep in a deep file (minutes at 100,000 levels). The reader keeps count.
    let mut de = serde_json::Deserializer::from_reader(bytes);
    // serde_json's own limit (128 levels) would refuse deep scenes; `JsonSeed` limits the
    // depth instead. Reading recurses once per level, so serde_stacker continues on a new
    // stack segment (allocated on the heap) whenever the current one runs low: depth costs
    // memory in proportion to the file, never a stack overflow, on any caller's thread.
    de.disable_recursion_limit();
    JsonSeed { depth: 1 }
        .deserialize(serde_stacker::Deserializer::new(&mut de))
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| {
            let msg = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            Error::Scene {
                file: file.to_string(),
                location: format!("line {}, column {}", e.line(), e.column()),
                reason: msg.strip_suffix(&suffix).unwrap_or(&msg).to_string(),
            }
        })
}
