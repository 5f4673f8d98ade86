// Profile, financials and announcements: three views of one cached company page per symbol
// (datasets.company). The symbol is checked against the portal's lists first, so an unknown symbol
// costs no page fetch; a listed symbol whose company page is the portal's `Not Found` is 404 too.
import type { Cached } from '../../cache/types.ts';
import { invalidValue, NotFoundError, orList, UpstreamDataError } from '../../errors.ts';
import type { AnnouncementCategory, CompanyPage, FinancialPeriod } from '../../exchange/types.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerFrom, answerKey, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { AnnouncementT, FinancialsRowT, ProfileT } from '../models/resources.ts';
import { isKnownSymbol, normaliseSymbol } from '../symbols.ts';

export const FINANCIAL_PERIODS = ['annual', 'quarterly'] as const;
export type FinancialPeriodKind = (typeof FINANCIAL_PERIODS)[number];

export const ANNOUNCEMENT_CATEGORIES: readonly AnnouncementCategory[] = [
  'financial-results',
  'board-meetings',
  'others',
];

async function companyPage(
  datasets: Datasets,
  symbol: string,
  ctx: RequestContext,
): Promise<Cached<CompanyPage>> {
  if (!(await isKnownSymbol(datasets, symbol, ctx))) throw new NotFoundError(`${symbol} not found`);
  const cached = await datasets.company(symbol, ctx);
  if (cached.value === null)
    throw new NotFoundError(`${symbol} not found (the exchange has no company page for it)`);
  return cached as Cached<CompanyPage>;
}

/** A section the page had but that could not be read: the endpoint built on it cannot answer. */
function unreadable(
  page: CompanyPage,
  section: CompanyPage['missing'][number]['section'],
): UpstreamDataError {
  const reason = page.missing.find((m) => m.section === section)?.reason ?? 'not found';
  return new UpstreamDataError('company', `the ${section} section: ${reason}`);
}

const profiles = memoByDataset((page: CompanyPage) => (symbol: string): ProfileT => {
  const { quote, profile, equity } = page;
  return {
    symbol,
    name: quote?.name ?? null,
    sector: quote?.sectorName ?? null,
    description: profile?.description ?? null,
    key_people: profile ? [...profile.keyPeople] : [],
    address: profile?.address ?? null,
    website: profile?.website ?? null,
    registrar: profile?.registrar ?? null,
    auditor: profile?.auditor ?? null,
    fiscal_year_end: profile?.fiscalYearEnd ?? null,
    shares_outstanding: equity?.shares ?? null,
    free_float_shares: equity?.freeFloatShares ?? null,
    free_float_pct: equity?.freeFloatPct ?? null,
    market_cap: equity?.marketCap ?? null,
  };
});

export async function profile(
  datasets: Datasets,
  rawSymbol: string,
  ctx: RequestContext,
): Promise<Answer<ProfileT>> {
  const symbol = normaliseSymbol(rawSymbol);
  const cached = await companyPage(datasets, symbol, ctx);
  const page = cached.value;
  if (page.quote === null && page.profile === null && page.equity === null) throw unreadable(page, 'profile');
  return answerFrom(cached, profiles(page)(symbol), answerKey('profile', symbol));
}

function rowsOf(
  periods: readonly FinancialPeriod[],
  ratios: readonly FinancialPeriod[] | null,
): FinancialsRowT[] {
  const ratioLines = new Map((ratios ?? []).map((r) => [r.period, r.lines]));
  return periods.map((p) => ({ period: p.period, ...p.lines, ...(ratioLines.get(p.period) ?? {}) }));
}

const annualRows = memoByDataset((page: CompanyPage) => rowsOf(page.financials?.annual ?? [], page.ratios));
const quarterlyRows = memoByDataset((page: CompanyPage) => rowsOf(page.financials?.quarterly ?? [], null));

export function parsePeriod(raw: string | undefined): FinancialPeriodKind {
  if (raw === undefined) return 'annual';
  const period = raw.trim().toLowerCase();
  if ((FINANCIAL_PERIODS as readonly string[]).includes(period)) return period as FinancialPeriodKind;
  throw invalidValue('period', orList(FINANCIAL_PERIODS), raw);
}

/** Annual rows carry the ratios table's lines for the same period (the page has them for years only). */
export async function financials(
  datasets: Datasets,
  rawSymbol: string,
  period: FinancialPeriodKind,
  ctx: RequestContext,
): Promise<Answer<FinancialsRowT[]>> {
  const symbol = normaliseSymbol(rawSymbol);
  const cached = await companyPage(datasets, symbol, ctx);
  const page = cached.value;
  if (page.financials === null || page.financials[period] === null) throw unreadable(page, 'financials');
  return answerFrom(
    cached,
    period === 'annual' ? annualRows(page) : quarterlyRows(page),
    answerKey('financials', symbol, { period }),
  );
}

const announcementRows = memoByDataset((page: CompanyPage) =>
  (page.announcements ?? []).map((a): AnnouncementT => ({
    date: a.date,
    time: null,
    title: a.title,
    category: a.category,
    document_url: a.documentUrl,
    images: [...(a.images ?? [])],
  })),
);

export function parseCategory(raw: string | undefined): AnnouncementCategory | undefined {
  if (raw === undefined) return undefined;
  const category = raw.trim().toLowerCase();
  if ((ANNOUNCEMENT_CATEGORIES as readonly string[]).includes(category))
    return category as AnnouncementCategory;
  throw invalidValue('category', orList(ANNOUNCEMENT_CATEGORIES), raw);
}

/** Newest first within each category, as the page lists them; without a category, all of them by date. */
export async function announcements(
  datasets: Datasets,
  rawSymbol: string,
  category: AnnouncementCategory | undefined,
  ctx: RequestContext,
): Promise<Answer<AnnouncementT[]>> {
  const symbol = normaliseSymbol(rawSymbol);
  const cached = await companyPage(datasets, symbol, ctx);
  const page = cached.value;
  if (page.announcements === null) throw unreadable(page, 'announcements');
  const rows = announcementRows(page);
  const chosen =
    category === undefined
      ? [...rows].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))
      : rows.filter((r) => r.category === category);
  return answerFrom(cached, chosen, answerKey('announcements', symbol, { category }));
}
