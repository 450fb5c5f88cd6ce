// Components whose words are not in the catalog yet: one line each, removed when it is done.
// The list must be empty before issue 18's languages are done.
export const PENDING: string[] = [
];
