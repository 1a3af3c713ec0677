import { getConfig } from '../../config.js';
import { redactText } from '../../internal/redact.js';
import { logger } from '../../logger.js';
import { defineDatasetSource, normalizeQuestions, type AsyncDatasetSource } from '../define-source.js';
import type { DatasetDocument, DatasetProblem } from '../types.js';
import { MAX_DOCUMENT_BYTES } from '../text-input.js';
import { formatProblem, validateDataset } from '../validate.js';

const KEY = Symbol.for('ai-eval.http-dataset-cache');
const TAG = 'dataset:http';
/**
 * Default timeout of one request of the `http` source.
 *
 * @example
 * ```ts
 * configure({ datasets: { httpTimeoutMs: DEFAULT_HTTP_TIMEOUT_MS * 3 } });
 * ```
 */
export const DEFAULT_HTTP_TIMEOUT_MS = 10_000;

/** A fetched document, or why there is none: the warnings are logged again on every cache hit. */
interface Fetched {
  document: DatasetDocument | undefined;
  warnings: string[];
  /** The document was fetched and failed validation: its problems. */
  problems?: DatasetProblem[];
}

type Warn = (message: string) => void;

const logWarn: Warn = (message) => logger.warn(message, TAG);

function cache(): Map<string, Promise<Fetched>> {
  const holder = globalThis as { [KEY]?: Map<string, Promise<Fetched>> };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/**
 * Forgets every document the `http` source fetched (they are otherwise cached for the run).
 *
 * @example
 * ```ts
 * beforeEach(() => clearHttpDatasetCache());
 * ```
 */
export function clearHttpDatasetCache(): void {
  cache().clear();
}

/** A URL as a warning shows it: credentials in its userinfo (`https://user:pass@host`) redacted. */
function shown(url: string): string {
  return redactText(url);
}

/**
 * The URL the `http` source fetches `ref` from, as messages show it (credentials redacted), or
 * `undefined` when no valid base URL is configured. Logs nothing.
 *
 * @example
 * ```ts
 * configure({ datasets: { httpBaseUrl: 'https://evals.example.com/datasets' } });
 * httpDatasetUrl('support.yaml'); // 'https://evals.example.com/datasets/support.yaml'
 * ```
 */
export function httpDatasetUrl(ref: string): string | undefined {
  const url = documentUrl(ref);
  return url === undefined ? undefined : shown(url);
}

/** The URL `ref` is fetched from (credentials kept: the cache key), or undefined. Logs nothing. */
function documentUrl(ref: string): string | undefined {
  const base = getConfig().datasets.httpBaseUrl;
  if (base === undefined || base === '') return undefined;
  try {
    const url = new URL(base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return new URL(encodeURIComponent(ref), url.href.endsWith('/') ? url.href : `${url.href}/`).href;
  } catch {
    return undefined;
  }
}

/**
 * The problems of the document the `http` source fetched for `ref` in this process and refused as
 * invalid, or undefined: not fetched, not there (a 404, a network error) or valid. Fetches nothing
 * and logs nothing; `ai-eval pull` tells an invalid dataset (exit 1) from a missing one (exit 2) by it.
 *
 * @example
 * ```ts
 * await httpSource.load('support.yaml'); // [] and warnings: the document is invalid
 * (await httpDatasetProblems('support.yaml'))?.map(formatProblem);
 * ```
 */
export async function httpDatasetProblems(ref: string): Promise<DatasetProblem[] | undefined> {
  const url = documentUrl(ref);
  const cached = url === undefined ? undefined : cache().get(url);
  return cached === undefined ? undefined : (await cached).problems;
}

function baseUrl(label: string): string | undefined {
  const base = getConfig().datasets.httpBaseUrl;
  if (base === undefined || base === '') {
    logger.warn(
      `${label}: no base URL configured. Fix: configure({ datasets: { httpBaseUrl: 'https://...' } }).`,
      TAG,
    );
    return undefined;
  }
  try {
    const url = new URL(base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`unsupported protocol ${url.protocol}`);
    return url.href.endsWith('/') ? url.href : `${url.href}/`;
  } catch (error) {
    logger.warn(
      `${label}: datasets.httpBaseUrl ${JSON.stringify(shown(base))} is not an http(s) URL (${redactText((error as Error).message)}).`,
      TAG,
    );
    return undefined;
  }
}

function bareRef(ref: string, label: string): boolean {
  if (typeof ref === 'string' && ref.trim() !== '' && !/[/\\?#%]/.test(ref) && !ref.includes('..'))
    return true;
  logger.warn(
    `${label}: refusing dataset ref ${JSON.stringify(ref)}: the http source takes bare document names only.`,
    TAG,
  );
  return false;
}

async function fetchText(url: string, label: string, warn: Warn = logWarn): Promise<string | undefined> {
  const timeout = getConfig().datasets.httpTimeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeout),
      headers: { accept: 'application/yaml, application/json, text/plain' },
    });
    if (!response.ok) {
      warn(`${label}: GET ${shown(url)} answered ${response.status} ${response.statusText}; nothing loaded.`);
      return undefined;
    }
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_DOCUMENT_BYTES) {
      await response.body?.cancel();
      warn(
        `${label}: GET ${url} announced ${length} bytes, over the limit of ${MAX_DOCUMENT_BYTES} for one document; not read.`,
      );
      return undefined;
    }
    return await response.text();
  } catch (error) {
    const name = (error as Error).name;
    const reason =
      name === 'TimeoutError' || name === 'AbortError'
        ? `timed out after ${timeout} ms`
        : redactText((error as Error).message);
    warn(
      `${label}: GET ${shown(url)} failed: ${reason}. Fix: check datasets.httpBaseUrl, or raise datasets.httpTimeoutMs.`,
    );
    return undefined;
  }
}

async function fetchDocument(ref: string): Promise<DatasetDocument | undefined> {
  const label = `http:${ref}`;
  if (!bareRef(ref, label)) return undefined;
  const base = baseUrl(label);
  if (base === undefined) return undefined;
  const url = new URL(encodeURIComponent(ref), base).href;
  const cached = cache().get(url);
  if (cached) {
    // A cached failure still explains itself: its warnings are logged again for this load.
    const { document, warnings } = await cached;
    for (const message of warnings) logger.warn(message, TAG);
    return document;
  }
  const warnings: string[] = [];
  const warn: Warn = (message) => {
    warnings.push(message);
    logger.warn(message, TAG);
  };
  const pending = (async (): Promise<Fetched> => {
    const text = await fetchText(url, label, warn);
    if (text === undefined) return { document: undefined, warnings };
    const result = validateDataset(text, { file: label, json: ref.toLowerCase().endsWith('.json') });
    if (!result.valid) {
      warn(
        `${label} failed dataset validation and was refused whole (${result.problems.length} problem(s)).`,
      );
      for (const problem of result.problems) warn(formatProblem(problem));
      return { document: undefined, warnings, problems: result.problems };
    }
    return { document: result.document, warnings };
  })();
  cache().set(url, pending);
  return (await pending).document;
}

/**
 * The shipped `http` source: dataset documents from a registry over HTTP. The base URL comes from
 * `datasets.httpBaseUrl`; refs are bare document names; each request has a timeout
 * (`datasets.httpTimeoutMs`, default 10 s); every document is validated before use and cached for
 * the run (failures too). Async only: a synchronous load (Jest's `describe`) cannot use it.
 *
 * @example
 * ```ts
 * configure({ datasets: { httpBaseUrl: 'https://evals.example.com/datasets/' } });
 * const questions = await loadDataset({ source: 'http', ref: 'support.yaml' });
 * ```
 */
export const httpSource = defineDatasetSource({
  id: 'http',
  label: 'HTTP registry',
  description: 'Dataset documents fetched from datasets.httpBaseUrl.',
  synchronous: false,
  async load(ref, questionId, options) {
    const document = await fetchDocument(ref);
    if (!document) return [];
    return normalizeQuestions(
      structuredClone(document.questions),
      `http:${ref}`,
      questionId,
      logger,
      options,
    );
  },
  async loadSplits(ref) {
    return structuredClone((await fetchDocument(ref))?.splits ?? {});
  },
  async listDatasets() {
    const base = baseUrl('http:index.json');
    if (base === undefined) return [];
    const text = await fetchText(new URL('index.json', base).href, 'http:index.json');
    try {
      const value = text === undefined ? [] : (JSON.parse(text) as unknown);
      const list = Array.isArray(value) ? value : ((value as { datasets?: unknown }).datasets ?? []);
      return Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string') : [];
    } catch (error) {
      logger.warn(`http:index.json is not a JSON list of dataset names: ${(error as Error).message}.`, TAG);
      return [];
    }
  },
}) as AsyncDatasetSource;
