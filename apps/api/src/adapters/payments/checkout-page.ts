import { escapeHtml } from '#api/lib/html';

/** Plain HTML that reads well at 360 px; styles only (the CSP forbids inline scripts). The
 *  header, teal and favicon are the web app's (apps/web/src/app/theme.ts, public/favicon.svg,
 *  served from the same origin), so the member sees they are still in Dental Companion. */
const style = `
  *{box-sizing:border-box}
  body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1a1b1e;background:#f1f3f5;line-height:1.5}
  header{background:#fff;border-bottom:1px solid #dee2e6;padding:.5rem 1rem}
  .brand{display:inline-flex;align-items:center;gap:.6rem;text-decoration:none;font-size:1.35rem;font-weight:700;color:#1f3b57}
  .brand span{color:#0f6f69}
  main{max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #dee2e6;border-radius:8px}
  h1{font-size:1.5rem;margin:0 0 1rem}
  .test-mode{margin:0 0 1rem;padding:.75rem;border:2px solid #e8590c;border-radius:6px;background:#fff4e6;color:#7a2e00;font-weight:700}
  dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0 0 1.5rem}
  dt{font-weight:600}
  dd{margin:0}
  .actions{display:flex;flex-wrap:wrap;gap:.75rem}
  form{margin:0}
  button{font:inherit;font-weight:600;padding:.6rem 1.4rem;border-radius:6px;cursor:pointer;border:1px solid #0f6f69}
  .pay{background:#0f6f69;color:#fff}
  .cancel{background:#fff;color:#0f6f69}
  a{color:#0f6f69}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – Dental Companion</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<style>${style}</style>
</head>
<body>
<header><a class="brand" href="/"><img src="/favicon.svg" alt="" width="40" height="40">Dental <span>Companion</span></a></header>
<main>
${body}
</main>
</body>
</html>
`;
}

function form(action: string, paymentId: string, token: string, label: string, kind: string) {
  return `<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="payment_id" value="${escapeHtml(paymentId)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit" class="${kind}">${escapeHtml(label)}</button>
</form>`;
}

/** What a test-mode checkout shows and where its two buttons post. */
export interface TestCheckoutView {
  paymentId: string;
  formToken: string;
  /** Label and value of each line, e.g. ['Price', '$29.99 per year']. */
  lines: [string, string][];
  payPath: string;
  cancelPath: string;
}

/** The built-in checkout of test mode (docs/decisions/membership-checkout.md). */
export function testCheckoutPage(view: TestCheckoutView): string {
  const lines = view.lines
    .map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('\n');
  return page(
    'Checkout',
    `<h1>Checkout</h1>
<p class="test-mode" role="note">Test mode — no card is charged</p>
<dl>
${lines}
</dl>
<div class="actions">
${form(view.payPath, view.paymentId, view.formToken, 'Pay', 'pay')}
${form(view.cancelPath, view.paymentId, view.formToken, 'Cancel', 'cancel')}
</div>`,
  );
}

/** Where a dead checkout link sends the member to start again. */
export interface StartAgain {
  /** e.g. 'Please choose your plan again.' */
  advice: string;
  href: string;
  label: string;
}

/** A checkout link that is unknown, used, or expired (a browser navigation). */
export function checkoutNotFoundPage({ advice, href, label }: StartAgain): string {
  return page(
    'Checkout not found',
    `<h1>Checkout not found</h1>
<p>This checkout link has expired or was already used. ${escapeHtml(advice)}</p>
<p><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></p>`,
  );
}
