//! Items (contact points, blocks) grouped by the body rows they belong to, rebuilt each step
//! into buffers kept from step to step.

/// `items[offsets[row]..offsets[row + 1]]` lists the items of body `row`, in item order.
#[derive(Default)]
pub struct ByRow {
    pub offsets: Vec<usize>,
    pub items: Vec<u32>,
    /// Where `group` puts each row's next item.
    cursor: Vec<usize>,
}

impl ByRow {
    /// Groups the items that `rows_of` lists, each under the rows it gives (two bodies' rows;
    /// an item may leave a row out by giving None), over `rows` body rows.
    pub fn group<I>(&mut self, rows: usize, rows_of: impl Fn() -> I)
    where
        I: Iterator<Item = (u32, [Option<usize>; 2])>,
    {
        self.offsets.clear();
        self.offsets.resize(rows + 1, 0);
        for row in rows_of().flat_map(|(_, rows)| rows).flatten() {
            self.offsets[row + 1] += 1;
        }
        for i in 0..rows {
            self.offsets[i + 1] += self.offsets[i];
        }
        self.items.clear();
        self.items.resize(self.offsets[rows], 0);
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.offsets[..rows]);
        for (item, rows) in rows_of() {
            for row in rows.into_iter().flatten() {
                self.items[self.cursor[row]] = item;
                self.cursor[row] += 1;
            }
        }
    }

    /// The items of body `row`.
    pub fn of(&self, row: usize) -> &[u32] {
        &self.items[self.offsets[row]..self.offsets[row + 1]]
    }
}
