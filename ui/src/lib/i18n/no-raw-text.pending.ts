// Components whose words are not in the catalog yet: one line each, removed when it is done.
// The list must be empty before issue 18's languages are done.
export const PENDING: string[] = [
  'lib/components/AnswerActions.svelte',
  'lib/components/ApprovalCard.svelte',
  'lib/components/Composer.svelte',
  'lib/components/TaskPanel.svelte',
  'lib/components/TaskSheet.svelte',
  'lib/components/Thread.svelte',
  'lib/components/ThreadEntry.svelte',
  'lib/features/advanced/ApiKeyForm.svelte',
  'lib/features/advanced/ComposerAdvanced.svelte',
  'lib/features/advanced/ComposerExtras.svelte',
  'lib/features/advanced/TurnResult.svelte',
  'lib/features/attachments/AttachmentChips.svelte',
  'lib/features/inbox/InboxEntry.svelte',
  'lib/features/inbox/InboxList.svelte',
  'lib/features/spending/CapControl.svelte',
  'lib/features/updates/UpdateOffer.svelte',
  'lib/features/usage/TaskUsageList.svelte',
  'lib/features/usage/UsageButton.svelte',
  'lib/features/usage/UsagePanel.svelte',
  'lib/features/usage/UsageView.svelte',
];
