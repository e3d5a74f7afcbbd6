/**
 * A declared resource's screen: its list, with the create or edit drawer on top when the
 * route asks for one (`/user/edit` creates, `/user/edit/:id` edits).
 */
import { lazy } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { RESOURCES } from '../../../resources';
import { ResourceFormDrawer } from './resource-form-drawer';
import { ResourceList } from './resource-list';

/** antd's Result is needed only for a name no declaration has: its own chunk (pages/not-found-chunk.ts). */
const NotFoundPage = lazy(async () => ({ default: (await import('../pages/not-found-page')).NotFoundPage }));

export function ResourceScreen({ name }: { name: string }) {
  const resource = RESOURCES.find((r) => r.name === name);
  const { id } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  if (!resource) return <NotFoundPage />;
  const mode = id !== undefined ? 'edit' : pathname === resource.routes.create ? 'create' : undefined;
  return (
    <>
      <ResourceList resource={resource} />
      {resource.form && mode && <ResourceFormDrawer key={`${mode}:${id ?? ''}`} resource={resource} mode={mode} id={id} onClose={() => navigate(resource.routes.list)} />}
    </>
  );
}
