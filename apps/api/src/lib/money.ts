/** US cents as the product writes prices: $29.99. */
export const formatUsd = (cents: number) => `$${(cents / 100).toFixed(2)}`;
