import { useId } from 'react';
import { Link } from 'react-router';
import { IconLock } from '@tabler/icons-react';
import type { Plan } from '@dental/contracts';
import { isExternalLocation, showsLock, type TopicCard } from './topic-cards';
import classes from './topic-card-link.module.css';

/** One topic card: the whole card is a link named after the topic; external locations open in a
 *  new tab without handing this page to the other site. With the member's plan (once known), a
 *  locked topic says what that plan gives there, and shows the lock only where a paid plan gives
 *  more (docs/decisions/topic-card-lock.md). */
export function TopicCardLink({ card, plan }: { card: TopicCard; plan?: Plan | undefined }) {
  const noteId = useId();
  const note = plan === undefined ? undefined : card.planNote?.text(plan);
  const lock = plan !== undefined && showsLock(card, plan);
  const describedBy = note === undefined ? undefined : noteId;
  const content = (
    <>
      <img src={card.image} alt="" className={classes.image} />
      <span className={classes.name}>{card.name}</span>
    </>
  );
  return (
    <li className={lock ? `${classes.card} ${classes.locked}` : classes.card}>
      {isExternalLocation(card.location) ? (
        <a
          href={card.location}
          target="_blank"
          rel="noopener noreferrer"
          className={classes.link}
          aria-describedby={describedBy}
        >
          {content}
        </a>
      ) : (
        <Link to={card.location} className={classes.link} aria-describedby={describedBy}>
          {content}
        </Link>
      )}
      {lock && (
        <span className={classes.lock}>
          <IconLock size={16} aria-hidden />
        </span>
      )}
      {note !== undefined && (
        // Outside the link, so its name stays the card name; it describes the link.
        <span id={noteId} className={classes.note}>
          {note}
        </span>
      )}
    </li>
  );
}
