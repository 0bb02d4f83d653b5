import type { FunctionComponent } from 'preact';
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { formatStepShare, formatStepTime, LINE_CATEGORIES, wordNotice, type EstimateResult } from '../../memory/index';
import { lessonHref } from '../../base/lessons';
import { localizedHref } from '../../i18n/locales';
import {
  changesNumerics,
  estimateCommandLine,
  planDetails,
  planFlags,
  planLessons,
  planOptions,
  runBudgetLine,
  type Plan,
  type PriceTier,
} from '../../planner/index';
import { formatGiB } from '../../base/bytes';
import { LocaleContext, useMessages } from '../../i18n/use-messages';

/**
 * One plan in full: the engine's breakdown, step timeline and step time, the lessons it uses, the command that
 * reproduces it.
 */
export default function PlanDetails({ plan, finetune, priceTier }: { plan: Plan; finetune: boolean; priceTier: PriceTier }) {
  // The engine's estimate of this plan, made again when it is opened (the list leaves its lines and timeline out), once.
  const { estimate, stepTime } = useMemo(() => planDetails(plan), [plan]);
  const lessons = planLessons(plan);
  const locale = useContext(LocaleContext);
  const messages = useMessages();
  const strings = messages.planner;
  return (
    <div class="planner-details planner-in-view">
      <table class="widget-table">
        <tbody>
          {LINE_CATEGORIES.filter((c) => plan.perGpu[c] > 0).map((c) => (
            <tr>
              <th scope="row">{messages.memoryParts[c]}</th>
              <td>{formatGiB(plan.perGpu[c])}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">{strings.breakdown.total}</th>
            <td>
              <strong>{formatGiB(plan.perGpu.total)}</strong>
            </td>
          </tr>
          {plan.hostBytes > 0 && (
            <tr>
              <th scope="row">{strings.breakdown.host}</th>
              <td>{formatGiB(plan.hostBytes)}</td>
            </tr>
          )}
        </tbody>
      </table>
      <StepTimeline estimate={estimate} />
      <p>
        <strong>{strings.timeHeading}</strong>
        {strings.colon}
        {formatStepTime(stepTime.totalSeconds, stepTime.band)}
        {stepTime.band !== null && ` (${strings.bandNote(stepTime.band.source)})`}:{' '}
        {stepTime.lines
          .filter((l) => l.seconds > 0)
          // Each part as its share of the banded step: the band was measured on whole steps, a part has none.
          .map((l) => `${l.label} ${formatStepShare(l.seconds, stepTime.totalSeconds)}`)
          .join('; ')}{' '}
        ({stepTime.assumptions.join('; ')}).
      </p>
      {plan.run !== null && (
        <p data-run-steps={plan.run.steps}>
          <strong>{strings.runHeading}</strong>
          {strings.colon}
          {runBudgetLine(plan.run, priceTier, strings.search.run)}.
        </p>
      )}
      <p>
        <strong>{strings.lessonsHeading}</strong>
        {strings.colon}
        {lessons.length === 0
          ? strings.noLessons
          : lessons.map((id, i) => (
              <>
                {i > 0 && strings.listSeparator}
                <a href={localizedHref(locale, lessonHref(id))}>{messages.lessonTitles[id]}</a>
              </>
            ))}
      </p>
      {changesNumerics(planOptions(plan)) && <p class="calc-note">{strings.numericsNote}</p>}
      {(planOptions(plan).finetune ?? 'full') !== 'full' ? (
        <p class="calc-note">{strings.adapterNote}</p>
      ) : (
        finetune && <p class="calc-note">{strings.finetuneNote}</p>
      )}
      {estimate.notices.length > 0 && (
        <ul class="calc-warnings">
          {estimate.notices.map((notice) => (
            <li>{wordNotice(notice, messages.engine.warnings)}</li>
          ))}
        </ul>
      )}
      <p>
        {strings.estimateCommand} <code>{estimateCommandLine(planFlags(plan))}</code>
      </p>
    </div>
  );
}

/**
 * The engine's step timeline of the plan, as the calculators draw it. The chart and its library load when a plan is
 * first opened, not with the page: most readers open none, and the planner page's first search waits for its script.
 */
function StepTimeline({ estimate }: { estimate: EstimateResult }) {
  const strings = useMessages().planner;
  const [chart, setChart] = useState<{ Chart: FunctionComponent<{ result: EstimateResult }> } | 'loading' | 'failed'>('loading');
  useEffect(() => {
    let live = true;
    import('../calculators/TimelineChart').then(
      (module) => live && setChart({ Chart: module.default }),
      () => live && setChart('failed'),
    );
    return () => {
      live = false;
    };
  }, []);
  if (chart === 'loading') return <p class="calc-note">{strings.timelineLoading}</p>;
  if (chart === 'failed') return <p class="widget-error">{strings.timelineFailed}</p>;
  return <chart.Chart result={estimate} />;
}
