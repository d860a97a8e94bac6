/** Calendar dates are shown as docs/product/general.md#dates-and-times writes them: YYYY-MM-DD. */
export const dateFormat = 'YYYY-MM-DD';
