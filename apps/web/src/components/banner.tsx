import bannerImage from '../assets/banner.svg';
import classes from './banner.module.css';

/** The product banner at the top of every screen; its text is the product's name. */
export function Banner() {
  return <img src={bannerImage} alt="Dental Companion" className={classes.banner} />;
}
