//! The strings of one run, interned: each distinct id, tag or step name is
//! kept once, in one buffer, and named by a small [`Name`]. The run's
//! bookkeeping keys on names, so an owner is a copyable integer, comparing
//! owners compares integers, and forgetting a run frees nothing one by one.

use foldhash::fast::RandomState;
use hashbrown::HashTable;
use std::hash::BuildHasher;
use std::ops::Range;

/// One interned string of the current run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name(u32);

impl Name {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn from_index(ix: u32) -> Name {
        Name(ix)
    }
}

/// The interner (cleared at every `RUN_STARTED`, keeping its capacity).
#[derive(Debug, Default)]
pub struct Names {
    text: String,
    spans: Vec<Range<usize>>,
    table: HashTable<u32>,
    hasher: RandomState,
}

impl Names {
    pub fn clear(&mut self) {
        self.text.clear();
        self.spans.clear();
        self.table.clear();
    }

    /// The bytes the interner holds (by capacity).
    pub fn footprint(&self) -> usize {
        self.text.capacity()
            + self.spans.capacity() * std::mem::size_of::<Range<usize>>()
            // A hash table slot and its control byte.
            + self.table.capacity() * (std::mem::size_of::<u32>() + 1)
    }

    /// How many names there are (names are `0..len`).
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// The string of a name.
    pub fn str(&self, n: Name) -> &str {
        self.spans
            .get(n.index())
            .map_or("", |r| &self.text[r.clone()])
    }

    /// The name of `s`, if it has one.
    #[inline]
    pub fn find(&self, s: &str) -> Option<Name> {
        let hash = self.hasher.hash_one(s);
        let (text, spans) = (&self.text, &self.spans);
        self.table
            .find(hash, |&ix| text[spans[ix as usize].clone()] == *s)
            .map(|&ix| Name(ix))
    }

    /// The name of `s`, given one if it has none.
    #[inline]
    pub fn intern(&mut self, s: &str) -> Name {
        let hash = self.hasher.hash_one(s);
        let (text, spans) = (&self.text, &self.spans);
        if let Some(&ix) = self
            .table
            .find(hash, |&ix| text[spans[ix as usize].clone()] == *s)
        {
            return Name(ix);
        }
        // More than 2^32 distinct strings in one run cannot be read in
        // memory anyway; saturating keeps this total.
        let ix = u32::try_from(self.spans.len()).unwrap_or(u32::MAX);
        let start = self.text.len();
        self.text.push_str(s);
        self.spans.push(start..self.text.len());
        let (text, spans, hasher) = (&self.text, &self.spans, &self.hasher);
        self.table.insert_unique(hash, ix, |&i| {
            hasher.hash_one(&text[spans[i as usize].clone()])
        });
        Name(ix)
    }
}

#[cfg(test)]
mod tests {
    use super::Names;

    #[test]
    fn one_name_per_distinct_string_until_cleared() {
        let mut n = Names::default();
        let ids: Vec<String> = (0..1000).map(|i| format!("id-{i}")).collect();
        let names: Vec<_> = ids.iter().map(|s| n.intern(s)).collect();
        for (s, &name) in ids.iter().zip(&names) {
            assert_eq!(n.intern(s), name);
            assert_eq!(n.find(s), Some(name));
            assert_eq!(n.str(name), s);
        }
        assert_eq!(n.len(), 1000);
        assert_eq!(n.find("id-1000"), None);
        assert_ne!(n.intern(""), n.intern("id-0"));
        n.clear();
        assert_eq!(n.find("id-1"), None);
        assert_eq!(n.len(), 0);
    }
}
