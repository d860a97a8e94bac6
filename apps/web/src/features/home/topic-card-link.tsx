import { useId } from 'react';
import { Link } from 'react-router';
import { IconLock } from '@tabler/icons-react';
import { isExternalLocation, type TopicCard } from './topic-cards';
import classes from './topic-card-link.module.css';

/** One topic card: the whole card is a link named after the topic; external locations open in a
 *  new tab without handing this page to the other site. */
export function TopicCardLink({ card }: { card: TopicCard }) {
  const lockId = useId();
  const describedBy = card.locked ? lockId : undefined;
  const content = (
    <>
      <img src={card.image} alt="" className={classes.image} />
      <span className={classes.name}>{card.name}</span>
    </>
  );
  return (
    <li className={card.locked ? `${classes.card} ${classes.locked}` : classes.card}>
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
      {card.locked && (
        <>
          <span className={classes.lock}>
            <IconLock size={16} aria-hidden />
          </span>
          {/* Outside the link, so its name stays the card name; it describes the link. */}
          <span id={lockId} className={classes.note}>
            {card.lockNote}
          </span>
        </>
      )}
    </li>
  );
}
