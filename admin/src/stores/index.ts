import { StoreList } from './StoreList';

export default { list: StoreList };
