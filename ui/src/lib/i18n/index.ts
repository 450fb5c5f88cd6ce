// Everything the page needs to speak the person's language.
export { t, loadLanguage, type Key, type Values } from './t';
export { language, speak, tag } from './language.svelte';
export * as intl from './intl';
