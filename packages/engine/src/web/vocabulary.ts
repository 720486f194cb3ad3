/** What a fetched body is, as the web capability and its cache in the store both name it. */
export type PageKind = 'html' | 'pdf' | 'text' | 'xml' | 'json' | 'binary';
