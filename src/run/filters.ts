/** The filters a suite applies, after the environment overrides. */
export interface SuiteFilters {
  split?: string;
  tags?: string[];
  ids?: string[];
}

/** Describes the filters for messages, for example `split 'holdout', tags smoke`. */
export function describeFilters(filters: SuiteFilters): string {
  const parts = [
    filters.split ? `split '${filters.split}'` : '',
    filters.tags ? `tags ${filters.tags.join(', ')}` : '',
    filters.ids ? `ids ${filters.ids.join(', ')}` : '',
  ].filter((p) => p !== '');
  return parts.length > 0 ? parts.join('; ') : 'none';
}
