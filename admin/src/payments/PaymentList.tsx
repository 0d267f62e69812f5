export function PaymentList() {
  return null;
}
