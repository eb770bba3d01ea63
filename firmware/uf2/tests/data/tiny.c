int counter = 0x12345678;
int table[70] = {1,2,3,4,5,6,7,8,9,10};
int zeros[100];
const char msg[] = "hello rp2040";
void _start(void) { for(;;) { counter += table[counter & 7] + zeros[3] + msg[1]; } }
