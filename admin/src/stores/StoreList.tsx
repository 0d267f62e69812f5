export function StoreList() {
  return null;
}
