//! A value derived from the whole tree and kept on the stage until the tree changes, such as
//! the pick index: the layers above make it, the tree only holds it (so the tree does not
//! depend on them).

use std::any::Any;
use std::sync::{Arc, Mutex};

use crate::Result;

/// One kept value of a type the tree does not know. A clone of a stage starts empty.
#[derive(Default)]
pub(crate) struct DerivedCell(Mutex<Option<Arc<dyn Any + Send + Sync>>>);

impl DerivedCell {
    /// The kept value when it is a `T` and `valid` accepts it; else the one `make` gives,
    /// which is kept. The cell stays locked while `make` runs, so that threads asking at
    /// once make it once.
    pub fn get_or_make<T: Any + Send + Sync>(
        &self,
        valid: impl FnOnce(&T) -> bool,
        make: impl FnOnce() -> Result<T>,
    ) -> Result<Arc<T>> {
        let mut cell = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(kept) = cell.as_ref().and_then(|v| v.clone().downcast::<T>().ok())
            && valid(&kept)
        {
            return Ok(kept);
        }
        let made = Arc::new(make()?);
        *cell = Some(made.clone());
        Ok(made)
    }
}

impl Clone for DerivedCell {
    fn clone(&self) -> Self {
        DerivedCell::default()
    }
}

impl std::fmt::Debug for DerivedCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DerivedCell")
    }
}
