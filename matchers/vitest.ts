// Registration of the matchers on Vitest's expect: built by the matchers issue.
export {};
