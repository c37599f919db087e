/** The centre's closures editor (ADMIN): holidays, closed periods and shortened days. */
export { CentreClosuresEditor } from './components/CentreClosuresEditor';
export { default as CentreClosuresPage } from './components/CentreClosuresPage';
