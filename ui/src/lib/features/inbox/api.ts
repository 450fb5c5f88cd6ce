// What needs the person, typed (lib/api.ts talks to Tauri); a card is answered with the app's
// own card commands, exactly as in its task.
import { inboxApi } from '../../api';

export type { InboxItem, InboxKind, InboxView } from '../../api';
export { inboxApi };
export type InboxApi = typeof inboxApi;
