export function UserList() {
  return null;
}
