// Registration of the matchers on Jest's expect: built by the matchers issue.
export {};
