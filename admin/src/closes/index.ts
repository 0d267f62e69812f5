export { BoardPage } from './BoardPage';
export { ClosePage } from './ClosePage';
