/**
 * Every resource the console renders with its generic List and Create/Edit screens, in menu
 * order. Adding a resource = one declaration file and one line here.
 */
import type { ResourceDefinition } from '../src/shared/resources/definition';
import { auditResource } from './audit';
import { channelsResource } from './channels';
import { logsResource } from './logs';
import { midjourneyResource } from './midjourney';
import { redemptionsResource } from './redemptions';
import { tasksResource } from './tasks';
import { tokensResource } from './tokens';
import { usersResource } from './users';

export const RESOURCES: ResourceDefinition[] = [tokensResource, logsResource, midjourneyResource, tasksResource, channelsResource, redemptionsResource, usersResource, auditResource];
