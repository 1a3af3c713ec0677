/** Rewrites the source maps under `dist` to name shipped files with their content; returns how many changed. */
export function fixSourceMaps(dist?: string): number;
