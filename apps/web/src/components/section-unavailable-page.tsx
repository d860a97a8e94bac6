import { StatusPage } from './status-page';

/** One page for every section a later issue builds (docs/decisions/section-not-available-page.md). */
export function SectionUnavailablePage({ title }: { title: string }) {
  return <StatusPage title={title}>This section is not available yet.</StatusPage>;
}
