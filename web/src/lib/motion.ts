/** 'smooth' unless the user asked for reduced motion: a scroll made in code follows the same wish as CSS. */
export function scrollBehavior(): ScrollBehavior {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}
