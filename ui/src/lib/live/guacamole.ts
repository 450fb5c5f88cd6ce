// guacamole-common-js's ES build has one default export (the Guacamole namespace object), while
// @types/guacamole-common-js describes the module as that namespace: bridge the two here once.
import type * as GuacamoleTypes from 'guacamole-common-js';
import GuacamoleRuntime from 'guacamole-common-js';

export const Guacamole = GuacamoleRuntime as typeof GuacamoleTypes;
export type { GuacamoleTypes };
