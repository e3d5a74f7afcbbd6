/** Any unknown route (docs/console.md#routes-and-guards): the page does not exist, check the address. */
import { StatusResult } from '../components/status-result';

export function NotFoundPage() {
  return <StatusResult status="404" titleKey="notFound.title" subtitleKey="notFound.subtitle" />;
}
