import { StatusPage } from './status-page';

export default function NotFoundPage() {
  return <StatusPage title="Page not found">There is no page at this address.</StatusPage>;
}
