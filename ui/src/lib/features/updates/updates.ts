import type { Api } from '../../api';

/** What the update offer needs from the app: its status, install, later, and changes. */
export type UpdatesApi = Pick<Api, 'updateStatus' | 'installUpdate' | 'dismissUpdate' | 'onUpdateStatusChanged'>;
