import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { corporateActions } from '../../../market/corporate-actions/corporate-actions.ts';
import { CorporateAction, CorporateActionsCoverage } from '../../../market/models/resources.ts';
import {
  columnsOf,
  errorResponses,
  FormatQuery,
  listEnvelope,
  MissingMeta,
  SymbolParam,
} from '../../pipeline/schemas.ts';
import type { RouteDeps } from '../deps.ts';

export function corporateActionRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;

  r.get(
    '/stocks/:symbol/corporate-actions',
    {
      schema: {
        operationId: 'listCorporateActions',
        summary: 'Corporate actions found in the portal’s own records',
        description:
          'Capital changes (bonus, right, split) where the portal’s adjusted daily series steps against the raw history, each confirmed or contradicted by the raw prices on its ex-date, and the cash dividends, bonus and right issues of the company payouts page. Oldest first. A step the raw prices contradict is listed with applied=false and a note. meta.coverage says how far back the record reaches: capital_changes_from (first day of the adjusted series, about five years), dividends_from (oldest payouts announcement; the page keeps about 17–18 months, the archive every row the service read: meta.archive says when it served rows), face_value (PKR, the assumed face value behind the dividend amounts). The archive keeps every capital change an analysis applied and every payouts row the service read: where the adjusted series or the payouts page fails or no longer reaches, the kept rows are served and meta.archive names them (never a guessed action: only kept ones). When the adjusted series or the payouts page cannot be had, the other’s actions (and the archive’s) are listed and meta.missing names the part left out (capital_changes or dividends) and why; When the raw history page fails, the archive’s raw bars of the symbol stand in for it (meta.missing names raw_history and the last day they reach). 503/502 only when neither the adjusted series, the payouts page nor the archive has anything, or neither the raw history page nor the archive’s bars can be had. With the archive’s daily closing files, a day whose file marks the symbol XD (ex-dividend), XB (ex-bonus) or XR (ex-right) adds `closing_file_marker` to the evidence of the action of that kind on that day; a marker of another kind than the day’s actions is noted on them, not used; a marked day without a known action is listed unconfirmed (ratio and amount null, applied false): a marker says the day and kind, never the amount, so it adjusts nothing.',
        tags: ['stocks'],
        params: SymbolParam,
        querystring: FormatQuery,
        response: {
          200: listEnvelope('CorporateAction', 'actions, oldest first', {
            coverage: CorporateActionsCoverage,
            ...MissingMeta,
            archive: Type.Optional(
              Type.Object(
                {
                  payouts_rows: Type.Integer({ description: 'payouts rows served from the archive' }),
                  reason: Type.Union([Type.String(), Type.Null()], {
                    description: 'why the archive served payouts rows; null when it served none',
                  }),
                  capital_changes: Type.Array(Type.String({ format: 'date' }), {
                    description:
                      'ex-dates of the capital-change rows served from the archive, oldest first: changes an earlier analysis applied (the adjusted series stepped and the raw prices confirmed it) that the adjusted series does not show now, because it failed, is empty or no longer reaches back that far',
                  }),
                  raw_history_rows: Type.Integer({
                    description:
                      'raw daily bars read from the archive because the raw history page failed (meta.missing names raw_history and the last day they reach); 0 when the page answered',
                  }),
                  closing_file_markers: Type.Integer({
                    description:
                      'days the daily closing files kept by the archive mark the symbol XD, XB or XR: each is `closing_file_marker` evidence of the action of its kind that day, a note on a day whose actions are of another kind, or an unconfirmed action (applied: false) when no action is known that day',
                  }),
                  capital_changes_reason: Type.Union([Type.String(), Type.Null()], {
                    description:
                      'why the archive served capital changes, or how far back its record widened coverage.capital_changes_from; null when it did neither',
                  }),
                },
                {
                  description:
                    'present when the archive added to the answer: the raw bars when the raw history page failed, payouts rows announced before the payouts page’s window (all of them when the page failed), capital changes the adjusted series no longer shows (all of them when it failed), an older coverage.capital_changes_from, or days the closing files mark',
                },
              ),
            ),
          }),
          ...errorResponses({ 404: 'unknown symbol' }),
        },
      },
    },
    async (req, reply) => {
      const symbol = req.params.symbol.toUpperCase();
      const answer = await corporateActions(datasets, symbol, contextOf(req), deps.archive);
      return respond.send(req, reply, answer, {
        filename: `${symbol}-corporate-actions`,
        columns: columnsOf(CorporateAction),
      });
    },
  );
}
