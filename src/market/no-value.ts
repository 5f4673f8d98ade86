// Which of the portal's zeros mean "no value" (the API's null), field by field. The portal prints
// 0 where a value does not exist; where a zero can also be a real value, it stays a number.
//
// - P/E (`pe_ratio`): 0 is printed for loss-makers and for companies without reported earnings; no
//   listed company trades at a P/E of exactly 0, so 0 → null.
// - 1-year change (`change_1y_pct`): 0 is printed for a symbol listed less than a year (and for
//   rights, which live for weeks); an unchanged price to the paisa over a year is rarer than a
//   fresh listing, so 0 → null.
// - Market capitalisation and free float (`market_cap`, `free_float`): a listed equity has shares
//   and a price; 0 means the portal has no share count, so 0 → null.
// - Price, LDCP, open, high, low (`price`, `ldcp`, `open`, `high`, `low`): no share trades at 0; the
//   boards print 0 for a symbol without a trade, so 0 → null.
// Real zeros, kept: dividend yield (no dividend paid), volumes (no trades), changes (unchanged).

/** 0 → null: for fields where the portal's 0 means the value does not exist. */
export function zeroIsMissing(value: number | null | undefined): number | null {
  return value === undefined || value === 0 ? null : value;
}
