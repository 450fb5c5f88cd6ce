import '@testing-library/jest-dom/vitest';

// Tests switch to German with `speak('de')` at once, as the page does once it has loaded it.
import { loadLanguage } from '../lib/i18n';
await loadLanguage('de');
