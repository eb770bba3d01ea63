/* startup.c: the few lines a bare Cortex-M4F needs before `main` when a C program links the
 * hopkit staticlib (thumbv7em-none-eabihf): a vector table, the FPU switched on (the library is
 * compiled for the hard-float ABI), .data copied and .bss zeroed, newlib's semihosting I/O
 * (rdimon) initialised, then `exit(main())`, which QEMU turns into its exit status. */
#include <stdint.h>
#include <stdlib.h>

extern int main(void);
extern void initialise_monitor_handles(void);
extern void __libc_init_array(void);

extern uint32_t __stack_top, __data_load, __data_start, __data_end, __bss_start__, __bss_end__;

void reset_handler(void);
void fault_handler(void);

/* Initial stack pointer, reset, NMI, HardFault, MemManage, BusFault, UsageFault. */
__attribute__((section(".vectors"), used)) static void (*const vectors[7])(void) = {
    (void (*)(void))&__stack_top, reset_handler, fault_handler, fault_handler,
    fault_handler, fault_handler, fault_handler,
};

void reset_handler(void) {
    /* CPACR: full access to CP10/CP11 (the FPU), then synchronise. */
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
    __asm volatile("dsb\n\tisb" ::: "memory");
    uint32_t *src = &__data_load;
    for (uint32_t *dst = &__data_start; dst < &__data_end;) *dst++ = *src++;
    for (uint32_t *dst = &__bss_start__; dst < &__bss_end__;) *dst++ = 0;
    initialise_monitor_handles();
    __libc_init_array();
    exit(main());
}

/* Any fault: report over semihosting and stop with a failing status. */
void fault_handler(void) {
    static const char msg[] = "hopkit C example: CPU fault\n";
    /* SYS_WRITE0 (0x04) of msg, then SYS_EXIT (0x18) with ADP_Stopped_RunTimeErrorUnknown. */
    register uint32_t r0 __asm("r0") = 0x04;
    register const void *r1 __asm("r1") = msg;
    __asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    r0 = 0x18;
    r1 = (const void *)0x20023u;
    __asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    for (;;) {
    }
}

/* newlib's __libc_init_array/__libc_fini_array call these (normally from crti.o/crtn.o, which a
 * -nostartfiles link leaves out); constructors come through .init_array instead. */
void _init(void) {}
void _fini(void) {}
