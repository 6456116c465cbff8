/// What an update does to one optional field. The contract treats an empty value as
/// "not given", so clearing needs its own word: the value `null` (as the spec uses for
/// an order's shipping address) clears a field.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Change<T> {
    #[default]
    Keep,
    Set(T),
    Clear,
}

impl<T> Change<T> {
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Change<U> {
        match self {
            Change::Keep => Change::Keep,
            Change::Set(v) => Change::Set(f(v)),
            Change::Clear => Change::Clear,
        }
    }

    pub fn as_set(&self) -> Option<&T> {
        match self {
            Change::Set(v) => Some(v),
            _ => None,
        }
    }

    pub fn is_keep(&self) -> bool {
        matches!(self, Change::Keep)
    }
}
