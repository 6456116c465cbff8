/// Page sizes fixed by the spec, per resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageSize(pub u32);

impl PageSize {
    pub const DEFAULT: PageSize = PageSize(25);
    pub const BUSINESSES: PageSize = PageSize(20);
    pub const ITEM_HISTORY: PageSize = PageSize(5);
}

/// A 1-based page of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    pub number: u32,
    pub size: PageSize,
}

impl Page {
    /// Pages past u32 range are clamped; the list is simply empty there.
    pub fn new(number: u32, size: PageSize) -> Self {
        Page {
            number: number.max(1),
            size,
        }
    }

    pub fn limit(&self) -> u64 {
        u64::from(self.size.0)
    }

    pub fn offset(&self) -> u64 {
        u64::from(self.number - 1) * u64::from(self.size.0)
    }

    /// Pages needed for `total` records; 0 when there are none.
    pub fn total_pages(&self, total: u64) -> u64 {
        total.div_ceil(u64::from(self.size.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages() {
        let p = Page::new(3, PageSize::DEFAULT);
        assert_eq!(p.offset(), 50);
        assert_eq!(p.total_pages(0), 0);
        assert_eq!(p.total_pages(25), 1);
        assert_eq!(p.total_pages(26), 2);
        assert_eq!(Page::new(0, PageSize::ITEM_HISTORY).offset(), 0);
    }
}
