/**
 * The screen for a route above the user's role. Apart from the guards so that antd's Result
 * (and its illustrations) load only when it shows.
 */
import { StatusResult } from './components/status-result';

export function Forbidden() {
  return <StatusResult status="403" titleKey="forbidden.title" subtitleKey="forbidden.subtitle" />;
}
