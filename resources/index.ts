/**
 * Every resource the console renders with its generic List and Create/Edit screens, in menu
 * order. Adding a resource = one declaration file and one line here.
 */
import type { ResourceDefinition } from '../src/shared/resources/definition';
import { usersResource } from './users';

export const RESOURCES: ResourceDefinition[] = [usersResource];
