import { formatSeconds, LINE_CATEGORIES } from '../../memory/index';
import { LESSON_TITLES, lessonHref, planDetails, planFlags, planLessons, planOptions, type Plan } from '../../planner/index';
import { estimateArgs, gib } from './format';
import { strings } from './strings';

/** One plan in full: the engine's breakdown and step time, the lessons it uses, the command that reproduces it. */
export default function PlanDetails({ plan, finetune }: { plan: Plan; finetune: boolean }) {
  // The engine's step-time lines and warnings for this plan, estimated again when it is opened (the list leaves them out).
  const { stepTime, warnings } = planDetails(plan);
  const lessons = planLessons(plan);
  return (
    <div class="planner-details">
      <table class="widget-table">
        <tbody>
          {LINE_CATEGORIES.filter((c) => plan.perGpu[c] > 0).map((c) => (
            <tr>
              <th scope="row">{strings.breakdown[c]}</th>
              <td>{gib(plan.perGpu[c])}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">{strings.breakdown.total}</th>
            <td>
              <strong>{gib(plan.perGpu.total)}</strong>
            </td>
          </tr>
          {plan.hostBytes > 0 && (
            <tr>
              <th scope="row">{strings.breakdown.host}</th>
              <td>{gib(plan.hostBytes)}</td>
            </tr>
          )}
        </tbody>
      </table>
      <p>
        <strong>{strings.timeHeading}</strong>:{' '}
        {stepTime.lines
          .filter((l) => l.seconds > 0)
          .map((l) => `${l.label} ${formatSeconds(l.seconds)}`)
          .join('; ')}{' '}
        ({stepTime.assumptions.join('; ')}).
      </p>
      <p>
        <strong>{strings.lessonsHeading}</strong>:{' '}
        {lessons.length === 0
          ? strings.noLessons
          : lessons.map((id, i) => (
              <>
                {i > 0 && ', '}
                <a href={lessonHref(id)}>{LESSON_TITLES[id]}</a>
              </>
            ))}
      </p>
      {(planOptions(plan).finetune ?? 'full') !== 'full' ? (
        <p class="calc-note">{strings.adapterNote}</p>
      ) : (
        finetune && <p class="calc-note">{strings.finetuneNote}</p>
      )}
      {warnings.length > 0 && (
        <ul class="calc-warnings">
          {warnings.map((w) => (
            <li>{w}</li>
          ))}
        </ul>
      )}
      <p>
        {strings.estimateCommand} <code>npm run --silent estimate -- {estimateArgs(planFlags(plan))}</code>
      </p>
    </div>
  );
}
